/**
 * Keeps the newest of answers that may arrive out of order: a read's answer is numbered when the
 * read is asked, a push when it arrives, and an answer counts only when numbered after the last
 * one that counted. A read sent before a push, answered after it, is older than the push.
 */
export interface NewestOf<T> {
  /** The number of an answer asked for now. */
  ask(): number;
  /** Applies the answer numbered `asked` unless a later one counted already; whether it counted. */
  answer(asked: number, value: T): boolean;
  /** An answer that arrives now (a push, a refusal): newer than every read still running. */
  told(value: T): void;
}

export function newestOf<T>(apply: (value: T) => void): NewestOf<T> {
  let asked = 0;
  let counted = 0;
  const answer = (number: number, value: T) => {
    if (number <= counted) return false;
    counted = number;
    apply(value);
    return true;
  };
  return {
    ask: () => (asked += 1),
    answer,
    told: (value) => void answer((asked += 1), value),
  };
}
