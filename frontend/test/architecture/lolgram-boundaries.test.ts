// @vitest-environment node
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../../..');
const lolgram = path.join(repo, 'frontend/src/features/lolgram');
const eslint = new ESLint({ cwd: repo });

/** The boundary errors `npm run check` reports for a file at `file` (under LOLGram) importing `source`. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\n\nexport const planted = 1;\n`, {
    filePath: path.join(lolgram, file),
  });
  return result!.messages
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe("LOLGram's sub-features depend only as eslint.config.js says", () => {
  it.each([
    [
      'a sub-feature uses one it may not',
      'notifications/Planted.tsx',
      "import { PostCard } from '../posts';",
    ],
    [
      'the lower of two uses the higher',
      'posts/Planted.tsx',
      "import { PostGrid } from '../post-lists';",
    ],
    [
      'an allowed one is reached past its index.ts',
      'post-lists/Planted.tsx',
      "import { PostCard } from '../posts/PostCard';",
    ],
    ['the floor uses a sub-feature', 'ui/Planted.tsx', "import { postPath } from '../posts';"],
    [
      'a sub-feature uses the shell',
      'comments/Planted.tsx',
      "import { FeedTab } from '../tabs/FeedTab';",
    ],
    [
      'a sub-feature uses a page',
      'account/Planted.tsx',
      "import { LolgramApp } from '../LolgramApp';",
    ],
    [
      'LOLGram reaches into another feature',
      'posts/Planted.tsx',
      "import { GamePage } from '../../game/GamePage';",
    ],
  ])('refuses the import when %s', async (_case, file, source) => {
    expect(await boundaryErrors(file, source)).toHaveLength(1);
  });

  it.each([
    [
      'a sub-feature uses an allowed one through its index.ts',
      'post-lists/Planted.tsx',
      "import { PostCard } from '../posts';",
    ],
    [
      'a sub-feature uses the floor',
      'comments/Planted.tsx',
      "import { UserAvatar } from '../ui/UserAvatar';",
    ],
    [
      'the shell uses any sub-feature',
      'tabs/Planted.tsx',
      "import { CommentThread } from '../comments';",
    ],
  ])('allows the import when %s', async (_case, file, source) => {
    expect(await boundaryErrors(file, source)).toEqual([]);
  });
});
