import { TapBatches, type TapBatchesOptions } from './tap-batches';

export type { TapSettled } from './tap-batches';
export type TapSenderOptions = TapBatchesOptions;

/**
 * The game screen's tap sender: the channel's tap protocol (see TapBatches), and the page's
 * lifecycle, so that a page being hidden or closed sends its last window's taps at once, and the
 * browser's word on the network (a phone going into a tunnel), so that taps wait on the device.
 */
export class TapSender extends TapBatches {
  constructor(options: TapSenderOptions) {
    super(options);
    // A hidden page may be frozen or closed before the window ends: send its taps now.
    window.addEventListener('pagehide', this.flushPending);
    document.addEventListener('visibilitychange', this.onVisibilityChange);
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
  }

  override dispose(): void {
    window.removeEventListener('pagehide', this.flushPending);
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    super.dispose();
  }

  private readonly onOffline = () => this.networkLost();
  private readonly onOnline = () => this.networkBack();

  private readonly onVisibilityChange = () => {
    if (document.visibilityState === 'hidden') this.flushPending();
  };
}
