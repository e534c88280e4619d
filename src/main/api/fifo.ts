/**
 * A first-in first-out queue with O(1) `shift` (an array's `shift` moves every element, which
 * adds up when a sync queues tens of thousands of requests for one endpoint).
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** Puts an item back at the front (a request retried after a 429 keeps its place). */
  unshift(item: T): void {
    if (this.head > 0) this.items[--this.head] = item;
    else this.items.unshift(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head++;
    if (this.head === this.items.length) this.clear();
    else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
