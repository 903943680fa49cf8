import type { Queryable } from '../core/db';
import { BoardsRepository } from './boards-repository';
import { RebuildRepository } from './rebuild-repository';
import { GameRepository } from './repository';

/** The SQL the game stores run on, one repository per set of tables. */
export interface GameRepositories {
  /** Players, sessions and their counters: the one writer of them. */
  players: GameRepository;
  /** The boards, as Postgres holds them. */
  boards: BoardsRepository;
  /** What rebuilding an emptied Redis reads, and its generation. */
  rebuild: RebuildRepository;
}

export function gameRepositories(db: Queryable): GameRepositories {
  return {
    players: new GameRepository(db),
    boards: new BoardsRepository(db),
    rebuild: new RebuildRepository(db),
  };
}
