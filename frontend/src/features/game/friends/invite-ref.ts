/**
 * The invite code of the link a visitor arrived by (`/play?ref=<code>`), kept on the device until
 * they create their player, whose request carries it (docs/GAME.md, Friends and invitations). A
 * device that already plays keeps nothing: an existing player opening a link changes nothing.
 * Plain storage, no schema: this runs on the game screen's first visit.
 */
const REF = 'tapgram.game.ref';
/** At most what the server reads; it checks the code itself. */
const REF_MAX = 64;

export const inviteRef = {
  /** Keeps the address's `ref` while the device has no player, and forgets it once it has one. */
  keep(search: string, hasPlayer: boolean): void {
    try {
      if (hasPlayer) {
        localStorage.removeItem(REF);
        return;
      }
      const ref = new URLSearchParams(search).get('ref')?.trim();
      if (ref && ref.length <= REF_MAX) localStorage.setItem(REF, ref);
    } catch {
      // Storage refused (private mode): the invitation is not counted, the game goes on.
    }
  },
  /** The kept code, for the create-player request. */
  read(): string | undefined {
    try {
      return localStorage.getItem(REF) ?? undefined;
    } catch {
      return undefined;
    }
  },
  forget(): void {
    try {
      localStorage.removeItem(REF);
    } catch {
      // Nothing to forget.
    }
  },
};
