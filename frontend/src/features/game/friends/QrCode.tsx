import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * A QR code of `text`, as SVG, for an event screen: large, dark on white (what a phone's camera
 * reads best). Its own chunk: the QR library loads only when someone asks to see one.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    void qrSvg(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((made) => {
      if (!cancelled) setSvg(made);
    });
    return () => {
      cancelled = true;
    };
  }, [text]);
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="invite-qr"
      className="mx-auto aspect-square w-full max-w-72 rounded-xl bg-white p-2 [&>svg]:h-full [&>svg]:w-full"
      // The library's own SVG markup, made from the link on this device.
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}
