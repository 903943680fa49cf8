import { Users } from 'lucide-react';
import { Board } from '../BoardList';
import { BonusHistoryList } from './BonusHistoryList';
import { FriendRequests } from './FriendRequests';
import { useFriendsBoard, useInvitations } from './friends-queries';
import { InvitationsList } from './InvitationsList';
import { InvitePanel } from './InvitePanel';

const RELATION: Record<string, string> = { me: 'you', inviter: 'invited you', friend: '' };

/**
 * Friends on the game screen (docs/GAME.md, Friends and invitations): the friends board by the
 * season's points (live), the invite link, adding a friend by name, the invitations with their
 * state, and the bonus history. Loaded after the screen (its own chunk), for a player only.
 */
export function FriendsCard({ userId }: { userId: string }) {
  const board = useFriendsBoard(userId);
  const friendsPoints = (board.data?.rows ?? [])
    .filter((row) => row.relation !== 'me')
    .map((row) => `${row.id}:${row.points}`)
    .join();
  const invitations = useInvitations(userId, friendsPoints);
  return (
    <section
      aria-labelledby="friends-title"
      data-testid="friends"
      className="flex flex-col gap-4 rounded-2xl bg-slate-900 p-3 ring-1 ring-slate-800"
    >
      <h2 id="friends-title" className="flex items-center gap-2 text-lg font-black">
        <Users className="h-5 w-5 text-sky-300" aria-hidden="true" /> Friends this season
      </h2>
      <div data-testid="friends-board">
        <Board
          label="Friends board"
          empty={['Just you so far', 'Invite a friend or add one by name']}
          rows={board.data?.rows.map((row) => ({
            key: row.id,
            label: (
              <>
                {row.username}
                {RELATION[row.relation] && ' '}
                {RELATION[row.relation] && (
                  <span className="ml-1 text-xs font-normal text-slate-400">
                    {RELATION[row.relation]}
                  </span>
                )}
              </>
            ),
            points: row.points,
            rank: row.rank,
            highlight: row.relation === 'me',
          }))}
        />
      </div>
      <InvitePanel userId={userId} bonus={invitations.data?.rules.bonus} />
      <InvitationsList data={invitations.data} />
      <FriendRequests userId={userId} />
      <BonusHistoryList userId={userId} />
    </section>
  );
}
