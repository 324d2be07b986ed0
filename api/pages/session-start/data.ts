import { z } from 'zod';
import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { sessionToStart } from '../../../db/repositories/sessions.ts';
import { notFound } from '../../../lib/errors.ts';
import type { SessionStatus } from '../../../lib/domain.ts';
import type { SignedInRequest } from '../shared/page-routes.ts';

const params = z.object({ id: z.uuid() });

export interface SessionToStart {
  readonly id: string;
  readonly status: SessionStatus;
  readonly studyTitle: string;
  readonly prototypeUrl: string;
}

/** Only a session that can still record has a token to hand over (as for `POST .../test-token`). */
export const startable = (session: SessionToStart): boolean =>
  session.status === 'active' || session.status === 'paused';

/**
 * The page's session, for its own tester only: anyone else gets the 404 page, whether row-level
 * security hides the session from them or they may see it otherwise (its business, an admin).
 */
export async function sessionToStartOf(db: Db, request: SignedInRequest): Promise<SessionToStart> {
  const id = params.safeParse(request.ctx.params);
  const row = id.success
    ? await asUser(db, request.principal.claims, (tx) => sessionToStart(tx, id.data.id))
    : undefined;
  if (!row || row.tester_id !== request.principal.claims.sub) throw notFound('Session');
  return { id: row.id, status: row.status, studyTitle: row.study_title, prototypeUrl: row.prototype_url };
}
