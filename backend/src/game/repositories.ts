import type pg from 'pg';
import { withTransaction } from '../core/db';
import { BoardsRepository } from './boards-repository';
import { RebuildRepository } from './rebuild-repository';
import { GameRepository } from './repository';

/** The repositories that write the game's counters, on one transaction's client. */
export interface GameTransaction {
  client: pg.PoolClient;
  players: GameRepository;
  rebuild: RebuildRepository;
}

/** The SQL the game stores run on, one repository per set of tables. */
export interface GameRepositories {
  /** Players, sessions and their counters: the one writer of them. */
  players: GameRepository;
  /** The boards, as Postgres holds them. */
  boards: BoardsRepository;
  /** What rebuilding an emptied Redis reads, and its generation. */
  rebuild: RebuildRepository;
  /** Runs `work` in one transaction, with the repositories on its client. */
  transaction<T>(work: (tx: GameTransaction) => Promise<T>): Promise<T>;
}

export function gameRepositories(pool: pg.Pool): GameRepositories {
  return {
    players: new GameRepository(pool),
    boards: new BoardsRepository(pool),
    rebuild: new RebuildRepository(pool),
    transaction: (work) =>
      withTransaction(pool, (client) =>
        work({
          client,
          players: new GameRepository(client),
          rebuild: new RebuildRepository(client),
        }),
      ),
  };
}
