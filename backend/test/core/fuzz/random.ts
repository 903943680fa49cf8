/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same inputs, so a failure
 * found once is found again.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Lowercase letters and digits only: nothing the leak check looks for can appear by chance. */
  word(length = this.int(3, 12)): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  uuid(): string {
    const hex = () => this.int(0, 15).toString(16);
    const part = (n: number) => Array.from({ length: n }, hex).join('');
    return `${part(8)}-${part(4)}-4${part(3)}-a${part(3)}-${part(12)}`;
  }
}
