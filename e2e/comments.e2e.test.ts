import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { newAdmin, post, signIn, upload, viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';
/** A word-list match (0.6): held at this server's hold threshold. */
const PROFANE = 'this meme is fucking hilarious';

/**
 * Comments in a browser, on a phone: comment and reply, the post's author turns comments off, a
 * comment held by the automatic check and approved in /admin, blocking a commenter from a
 * comment's menu; axe finds nothing on the thread and its dialogs. Once, at 360 px (and the thread
 * at 320): no style of the comments tells a phone from a desktop, and the layout suites check the
 * post page with its thread at desktop widths.
 */
describe.runIf(executable)('LOLGram comments in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: string;
  const contexts = contextsClosedAfterEach();
  beforeAll(async () => {
    server = await startTestServer({
      env: { MODERATION_HOLD_THRESHOLD: '0.55', MODERATION_IMAGE_CHECK: 'off' },
    });
    browser = await launch(executable!);
    admin = await newAdmin(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (width: number, username: string): Promise<Page> => {
    const context = await browser.newContext({
      ...viewportOptions(width),
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server.url, username);
    return page;
  };
  const account = async (prefix: string) => {
    const username = `${prefix}_${Date.now().toString(36)}`;
    const made = await post(server.url, '/api/lolgram/users/create', {
      username,
      password: PASSWORD,
    });
    return { username, id: made.body.id, cookie: made.cookie };
  };

  const width = 360;
  it(`comments, replies, comments off, a held comment approved, a block (${width} px)`, async () => {
    const author = await account('author');
    const commenter = await account('fan');
    const caption = `a thread at ${width} px`;
    const made = await upload(server.url, author, caption);
    await until(async () => {
      const res = await fetch(`${server.url}/api/lolgram/posts/${made.id}`);
      return res.status;
    }).toBe(200);
    const shot = (name: string, page: Page) =>
      shoot(page, `comments-${name}-${width}`, { fullPage: true });

    // The card's comment button opens the post's page with the comment box focused.
    const fan = await open(width, commenter.username);
    const card = fan.getByRole('article', { name: `Post by ${author.username}` });
    await until(() => card.isVisible()).toBe(true);
    await card.getByRole('link', { name: 'Comment' }).click();
    const box = fan.getByRole('textbox', { name: 'Add a comment' });
    await until(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await until(() => fan.getByText('No comments yet. Be the first!').isVisible()).toBe(true);
    await box.fill('first!');
    await box.press('Enter');
    const first = fan.getByTestId('comment').filter({ hasText: 'first!' });
    await until(() => first.isVisible()).toBe(true);
    const replyButton = first.getByRole('button', { name: `Reply to ${commenter.username}` });
    await until(() => replyButton.isVisible()).toBe(true);
    await replyButton.click();
    const replyBox = fan.getByRole('textbox', { name: `Reply to @${commenter.username}` });
    await until(() => replyBox.evaluate((el) => el === document.activeElement)).toBe(true);
    await replyBox.fill('and a reply');
    await fan.getByRole('button', { name: 'Post', exact: true }).click();
    await until(() =>
      fan.getByTestId('comment').filter({ hasText: 'and a reply' }).isVisible(),
    ).toBe(true);
    await until(() => fan.getByText('2 comments').isVisible()).toBe(true);
    await shot('thread', fan);
    await expectNoViolations(fan, 'the thread');
    // The feed card shows the first comments and opens the whole thread.
    await fan.goto(`${server.url}/lolgram`);
    const feedCard = fan.getByRole('article', { name: `Post by ${author.username}` });
    await until(() => feedCard.getByText('first!').isVisible()).toBe(true);
    await shoot(feedCard, `comments-card-${width}`);
    await feedCard.getByRole('link', { name: 'View all 2 comments' }).click();
    await until(() => first.isVisible()).toBe(true);

    // Its author deletes a comment after a confirmation (here they think again).
    await first
      .getByRole('button', { name: `Options for the comment by ${commenter.username}` })
      .click();
    await fan.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = fan.getByRole('dialog', { name: 'Delete this comment?' });
    await until(() => confirm.isVisible()).toBe(true);
    await expectNoViolations(fan, 'the delete dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await until(() => confirm.count()).toBe(0);

    // Held by the automatic check: its author sees it waiting; a moderator approves it.
    await box.fill(PROFANE);
    await box.press('Enter');
    const held = fan.getByTestId('comment').filter({ hasText: PROFANE });
    await until(() => held.getByText('Waiting for a moderator').isVisible()).toBe(true);
    const boss = await open(width, admin);
    await boss.goto(`${server.url}/admin`);
    await boss.getByRole('tab', { name: 'Content Moderation' }).click();
    const item = boss.getByTestId('queue-item').filter({ hasText: PROFANE });
    await until(() => item.isVisible()).toBe(true);
    await until(() => item.getByText(`On the post: ${caption}`).isVisible()).toBe(true);
    await shot('admin-queue', boss);
    await item.getByRole('button', { name: 'Approve' }).click();
    await until(() => item.count()).toBe(0);
    await fan.reload();
    await until(() => held.isVisible()).toBe(true);
    await until(() => held.getByText('Waiting for a moderator').count()).toBe(0);

    // The post's author turns comments off: the box goes; then on again.
    const owner = await open(width, author.username);
    await owner.goto(`${server.url}/lolgram/p/${made.id}`);
    await owner.getByRole('button', { name: 'Turn off commenting' }).click();
    await until(() => owner.getByRole('button', { name: 'Turn on commenting' }).isVisible()).toBe(
      true,
    );
    await fan.reload();
    await until(() => fan.getByText('Comments are turned off for this post.').isVisible()).toBe(
      true,
    );
    await until(() => box.count()).toBe(0);
    await shot('comments-off', fan);
    await owner.getByRole('button', { name: 'Turn on commenting' }).click();
    await until(() => owner.getByRole('button', { name: 'Turn off commenting' }).isVisible()).toBe(
      true,
    );

    // The author blocks the commenter from a comment's menu: their comments leave the author's
    // thread, and the commenter's next comment is refused in words.
    const theirs = owner.getByTestId('comment').filter({ hasText: 'first!' });
    await until(() => theirs.isVisible()).toBe(true);
    await theirs
      .getByRole('button', { name: `Options for the comment by ${commenter.username}` })
      .click();
    await owner.getByRole('menuitem', { name: `Block @${commenter.username}` }).click();
    const blockDialog = owner.getByRole('dialog', { name: `Block @${commenter.username}?` });
    await until(() => blockDialog.isVisible()).toBe(true);
    await expectNoViolations(owner, 'the block dialog');
    await blockDialog.getByRole('button', { name: 'Block' }).click();
    await until(() => blockDialog.count()).toBe(0);
    await until(() => owner.getByText('and a reply').count()).toBe(0);
    await until(() => owner.getByText('first!', { exact: true }).count()).toBe(0);
    await shot('after-block', owner);
    await fan.reload();
    await box.fill('still here?');
    await box.press('Enter');
    await until(() =>
      fan.getByRole('alert').filter({ hasText: "You can't comment on this post" }).isVisible(),
    ).toBe(true);
    await shot('blocked', fan);
    await expectNoViolations(fan, 'the refused comment');
    // The narrowest phone: nothing runs off the side.
    await fan.setViewportSize({ width: 320, height: 740 });
    await until(() => fan.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    await shot('thread-320', fan);
  });
});
