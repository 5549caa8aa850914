/** What the process's exit listener needs of a recorder: to write what it holds, synchronously. */
export interface ClosesAtExit {
  closeAllNow(): void;
}

/**
 * The recorders installed in this process, behind one "exit" listener (many agents must not pile
 * up listeners); a recorder that reopens a resumed run asks the others to let it go.
 */
export class LiveRecorders<T extends ClosesAtExit> {
  private readonly live = new Set<T>();
  private readonly closeAll = (): void => {
    for (const recorder of this.live) recorder.closeAllNow();
  };

  join(recorder: T): void {
    this.live.add(recorder);
    if (this.live.size === 1) process.on("exit", this.closeAll);
  }

  leave(recorder: T): void {
    this.live.delete(recorder);
    if (this.live.size === 0) process.off("exit", this.closeAll);
  }

  /** The other recorders live in this process. */
  others(recorder: T): T[] {
    return [...this.live].filter((other) => other !== recorder);
  }
}
