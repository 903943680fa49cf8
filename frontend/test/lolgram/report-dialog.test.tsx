// @vitest-environment happy-dom
import { REPORT_DETAILS_MAX } from '@tapgram/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { dismiss } from '../../src/hooks/use-toast';
import { ReportDialog } from '../../src/features/lolgram/reports';
import { deferred, json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp } from './render';

const api = stubFetchForEachTest();

// The toasts live in a module-wide list: one left from a test must not answer for the next.
afterEach(() => dismiss());

const POST_ID = '00000000-0000-4000-8000-0000000000aa';
const POST_REPORT = `/api/lolgram/posts/${POST_ID}/report`;

/** What the screen sent to `path`, as JSON (the order of the fields is no concern). */
const sent = (path: string) =>
  api.bodies('POST', path).map((body) => JSON.parse(String(body)) as unknown);

/** A post's menu item that opens the dialog; the dialog closes itself as the real page's does. */
function Page({ target }: { target: { postId: string } | { commentId: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Report
      </button>
      <ReportDialog {...target} open={open} onOpenChange={setOpen} />
    </>
  );
}

async function openReport(
  target: { postId: string } | { commentId: string } = { postId: POST_ID },
) {
  renderWithApp(<Page target={target} />, { auth: false });
  await userEvent.click(screen.getByRole('button', { name: 'Report' }));
  return screen.getByRole('dialog');
}

describe('reporting a post or a comment', () => {
  it('reports a post as spam by default, thanks the user and closes', async () => {
    api.on('POST', POST_REPORT, () => json({ reported: true }));
    const dialog = await openReport();
    expect(dialog).toHaveAccessibleName('Report this post');
    expect(within(dialog).getByRole('radio', { name: 'spam' })).toBeChecked();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));

    expect(await screen.findByText('Thanks for reporting')).toBeVisible();
    expect(screen.getByText('A moderator will review this post.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // No details typed: none are sent.
    expect(sent(POST_REPORT)).toEqual([{ reason: 'spam' }]);
  });

  it('sends the chosen reason and the trimmed details, and starts empty the next time', async () => {
    const commentId = 'comment/1';
    const path = '/api/lolgram/comments/comment%2F1/report';
    api.on('POST', path, () => json({ reported: true }));
    const dialog = await openReport({ commentId });
    expect(dialog).toHaveAccessibleName('Report this comment');
    const details = within(dialog).getByLabelText(/Anything a moderator should know/);
    expect(details).toHaveAttribute('maxlength', String(REPORT_DETAILS_MAX));

    await userEvent.click(within(dialog).getByRole('radio', { name: 'harassment' }));
    await userEvent.type(details, '  rude  ');
    expect(within(dialog).getByText(`8/${REPORT_DETAILS_MAX}`)).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));

    expect(await screen.findByText('A moderator will review this comment.')).toBeVisible();
    expect(sent(path)).toEqual([{ reason: 'harassment', details: 'rude' }]);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Report' }));
    expect(
      within(screen.getByRole('dialog')).getByLabelText(/Anything a moderator should know/),
    ).toHaveValue('');
  });

  it("says why the report failed in the server's words and stays open to try again", async () => {
    const reply = deferred();
    api.on('POST', POST_REPORT, () => reply.promise);
    const dialog = await openReport();
    await userEvent.type(
      within(dialog).getByLabelText(/Anything a moderator should know/),
      'stolen',
    );

    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));

    // One report at a time: the button waits for the answer.
    expect(await within(dialog).findByRole('button', { name: 'Reporting...' })).toBeDisabled();
    reply.settle(json({ error: 'You already reported this post' }, 409));

    expect(await screen.findByText('You already reported this post')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(within(dialog).getByRole('button', { name: 'Report' })).toBeEnabled();
    expect(within(dialog).getByLabelText(/Anything a moderator should know/)).toHaveValue('stolen');
  });

  it('says the report failed when the server never answered', async () => {
    api.on('POST', POST_REPORT, () => {
      throw new TypeError('Failed to fetch');
    });
    const dialog = await openReport();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));

    expect(await screen.findByText('Failed to report post')).toBeVisible();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('closes on Cancel without sending anything', async () => {
    const dialog = await openReport();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', POST_REPORT)).toHaveLength(0);
  });
});
