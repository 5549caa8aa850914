import { registration, type Registration } from "../registration.js";

export interface Entry<T> {
  value: T;
  owner: string | undefined;
}

/** An ordered list of registered values with their owners; removal by registration. */
export class Registry<T> {
  private entries: Entry<T>[] = [];

  add(value: T, owner?: string): Registration {
    const entry = { value, owner };
    this.entries = [...this.entries, entry];
    return registration(() => {
      this.entries = this.entries.filter((e) => e !== entry);
    });
  }

  list(): readonly Entry<T>[] {
    return this.entries;
  }

  get size(): number {
    return this.entries.length;
  }
}
