import { TapBatches, type TapBatchesOptions } from './tap-batches';

export type { TapSettled } from './tap-batches';
export type TapSenderOptions = TapBatchesOptions;

/**
 * The game screen's tap sender: the channel's tap protocol (see TapBatches), and the page's
 * lifecycle, so that a page being hidden or closed sends its last window's taps at once.
 */
export class TapSender extends TapBatches {
  constructor(options: TapSenderOptions) {
    super(options);
    // A hidden page may be frozen or closed before the window ends: send its taps now.
    window.addEventListener('pagehide', this.flushPending);
    document.addEventListener('visibilitychange', this.onVisibilityChange);
  }

  override dispose(): void {
    window.removeEventListener('pagehide', this.flushPending);
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
    super.dispose();
  }

  private readonly onVisibilityChange = () => {
    if (document.visibilityState === 'hidden') this.flushPending();
  };
}
