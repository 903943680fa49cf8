-- Up Migration

-- Friends, invitations and the referral bonus (docs/GAME.md, Friends and invitations).

-- Each player's invite code (/play?ref=<code>), made the first time they ask for their link.
CREATE TABLE game_invite_codes (
  user_id    uuid PRIMARY KEY REFERENCES game_users (id) ON DELETE CASCADE,
  code       text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Who brought whom: one invitation a player at most (the unique invitee), never oneself. The
-- referral bonus is 'pending' until it is paid to both sides or cancelled with a reason.
CREATE TABLE game_invitations (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  inviter_id   uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  invitee_id   uuid NOT NULL UNIQUE REFERENCES game_users (id) ON DELETE CASCADE,
  state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'paid', 'cancelled')),
  reason       text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  settled_at   timestamptz,
  CHECK (inviter_id <> invitee_id)
);
CREATE INDEX game_invitations_inviter_idx ON game_invitations (inviter_id, created_at DESC);
CREATE INDEX game_invitations_pending_idx ON game_invitations (invitee_id) WHERE state = 'pending';

-- Referral bonuses paid per inviter and UTC day, against REFERRAL_DAILY_CAP.
CREATE TABLE game_referral_days (
  inviter_id uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  day        integer NOT NULL,
  paid       integer NOT NULL CHECK (paid > 0),
  PRIMARY KEY (inviter_id, day)
);

-- The referral bonuses paid: one a player and an invitation, whatever the retries and nodes.
CREATE TABLE game_referral_bonuses (
  invitation_id uuid NOT NULL REFERENCES game_invitations (id) ON DELETE CASCADE,
  user_id       uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  role          text NOT NULL CHECK (role IN ('inviter', 'invitee')),
  points        bigint NOT NULL CHECK (points >= 0),
  paid_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (invitation_id, user_id)
);
CREATE INDEX game_referral_bonuses_user_idx ON game_referral_bonuses (user_id, paid_at DESC);

-- Friendships, one row each way (either side reads its own). An accepted invitation or a request
-- that the other accepted makes one.
CREATE TABLE game_friends (
  user_id    uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  friend_id  uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, friend_id),
  CHECK (user_id <> friend_id)
);

-- Friend requests waiting for the other player's answer.
CREATE TABLE game_friend_requests (
  from_id    uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  to_id      uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_id, to_id),
  CHECK (from_id <> to_id)
);
CREATE INDEX game_friend_requests_to_idx ON game_friend_requests (to_id);

-- The audit also records the referral bonuses a freeze cancelled.
ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_action_check;
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_action_check
  CHECK (action IN ('freeze', 'unfreeze', 'cancel-referral'));

-- Down Migration

ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_action_check;
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_action_check CHECK (action IN ('freeze', 'unfreeze'));
DROP TABLE game_friend_requests;
DROP TABLE game_friends;
DROP TABLE game_referral_bonuses;
DROP TABLE game_referral_days;
DROP TABLE game_invitations;
DROP TABLE game_invite_codes;
