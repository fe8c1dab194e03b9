import { startStack } from './stack';

/** `npm start`: runs the whole product against deploy/local's infra until Ctrl-C. */
const stack = await startStack({ echo: process.env.WAYFARER_QUIET !== '1' });
const line = '-'.repeat(60);
process.stdout.write(
  `\n${line}\n  Wayfarer is running: open ${stack.url}\n  Logs: ${stack.logDir}\n  Stop: Ctrl-C\n${line}\n\n`,
);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nstopping Wayfarer...\n');
    // Ctrl-C already reached every process of the terminal's group: give them time to stop
    void stack.stop({ alreadySignalled: signal === 'SIGINT' }).then(() => process.exit(0));
  });
}
