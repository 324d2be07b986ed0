import type { Tx } from '../doors.ts';

// Testers' profiles as the messaging channel uses them: the chat linked to each tester (0027).

export async function hasTesterProfile(tx: Tx, userId: string): Promise<boolean> {
  const profile = await tx
    .selectFrom('tester_profiles')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return profile !== undefined;
}

/** The chat linked to the tester, or null (no chat, or no profile). */
export async function messagingChatOf(tx: Tx, testerId: string): Promise<string | null> {
  const profile = await tx
    .selectFrom('tester_profiles')
    .select('messaging_chat_id')
    .where('user_id', '=', testerId)
    .executeTakeFirst();
  return profile?.messaging_chat_id ?? null;
}

/** Makes `chatId` the tester's chat. A chat belongs to one tester: any other tester's link to it ends. */
export async function linkChatToTester(tx: Tx, userId: string, chatId: string, at: Date): Promise<void> {
  await tx
    .updateTable('tester_profiles')
    .set({ messaging_chat_id: null, updated_at: at })
    .where('messaging_chat_id', '=', chatId)
    .where('user_id', '<>', userId)
    .execute();
  await tx
    .updateTable('tester_profiles')
    .set({ messaging_chat_id: chatId, updated_at: at })
    .where('user_id', '=', userId)
    .execute();
}
