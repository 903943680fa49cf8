import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog that no Escape, outside click or close button dismisses: it closes when `open`
 * turns false. The browser's own `<dialog>` (shown with `showModal`: the page behind it inert, the
 * focus kept inside), so that a page that opens with one (the game's welcome) loads and runs no
 * dialog library for it: Radix's Dialog is 11 KB gzipped, and its presence check reads the page's
 * computed styles as the dialog mounts, a long task on a phone.
 */
export function StayingDialog({
  open,
  title,
  description,
  descriptionRole,
  children,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  /** `alert` for a description that is the news itself (a failure). */
  descriptionRole?: 'alert';
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The first field or button, as Radix's dialogs do (a dialog with none takes the focus).
      dialog.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      // Escape asks the dialog to close: refused. A browser may close it anyway (a second Escape
      // with no click or key in between): shown again while it should be open.
      onCancel={(event) => event.preventDefault()}
      onClose={(event) => {
        if (open) event.currentTarget.showModal();
      }}
      className="m-auto max-h-[90vh] w-[calc(100%-2rem)] max-w-md gap-4 overflow-y-auto rounded-2xl border border-slate-700 bg-slate-900 p-6 text-slate-100 shadow-2xl backdrop:bg-black/70 backdrop:backdrop-blur-sm open:grid"
    >
      <div className="flex flex-col gap-1.5 text-center sm:text-left">
        <h2 id={titleId} className="text-xl font-bold">
          {title}
        </h2>
        <p id={descriptionId} role={descriptionRole} className="text-sm text-slate-400">
          {description}
        </p>
      </div>
      {children}
    </dialog>
  );
}
