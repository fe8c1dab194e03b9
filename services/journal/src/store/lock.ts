/**
 * Serializes async work per key within this process.
 *
 * Why: FerretDB v1 applies an update as read document -> modify -> write it back, with no
 * isolation between the read and the write, so two concurrent updates of ONE document lose
 * one of them (measured: 50 concurrent `$inc` leave 7). Every write to a journal entry
 * document (saves, the relay's outbox acknowledgement, deletions) goes through this lock.
 * Across several instances it does not help; MongoDB 7 needs none of it.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
