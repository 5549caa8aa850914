/** A handle on something registered; `close()` removes exactly that registration. */
export interface Registration extends Disposable {
  /** Removes the registration; calling it again does nothing. */
  close(): void;
  /** True once `close()` (or dispose) has run. */
  readonly closed: boolean;
}

/** Builds a registration whose `close` runs `remove` once, however often it is called. */
export function registration(remove: () => void): Registration {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    remove();
  };
  return {
    close,
    get closed() {
      return closed;
    },
    [Symbol.dispose]: close,
  };
}
