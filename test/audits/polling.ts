/** Polls until `done()` holds or the deadline passes; returns whether it held. */
export async function eventually(
  done: () => boolean | Promise<boolean>,
  deadlineMs = 30_000,
): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}
