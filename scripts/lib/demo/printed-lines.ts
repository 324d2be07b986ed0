/** What the demo printed so far, with a way to wait for a line, as a person reading along would. */
export class PrintedLines {
  readonly lines: string[] = [];

  constructor(private readonly echo: (line: string) => void = () => {}) {}

  readonly print = (line: string): void => {
    this.lines.push(line);
    this.echo(line);
  };

  /** The first line matching `pattern`, once printed (gives up after `timeoutMs`). */
  async match(pattern: RegExp, timeoutMs = 120_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const line of this.lines) {
        const found = pattern.exec(line);
        if (found) return found;
      }
      if (Date.now() > deadline) throw new Error(`The demo never printed ${pattern}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
