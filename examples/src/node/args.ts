/** Command line of `npm start -- <command> [options]`. */
import { parseArgs } from 'node:util';

export type Command = 'auto' | 'serve' | 'build' | 'demo' | 'list' | 'help';
const COMMANDS: readonly Command[] = ['serve', 'build', 'demo', 'list', 'help'];

export interface CliOptions {
  command: Command;
  scene?: string;
  seconds?: number;
  out?: string;
  /** Scene controls of the demo: --set id=value, repeatable. */
  controls?: Record<string, string>;
  port?: number;
  host?: string;
}

export class UsageError extends Error {}

export const USAGE = `usage: npm start [-- <command> [options]]

commands:
  (none)   in a terminal: same as serve; with CI=true or without a terminal: build the page,
           run the headless demo of the default scene for 3 s, and print where the page is
  serve    build the page, rebuild it on change, and serve it (default port 5173, or PORT)
  build    build the page into examples/dist/site
  demo     run a scene headless in Node and print a report per simulated second
  list     list the scenes
  help     this text

options:
  --scene <name>     scene of the demo (default chain)
  --seconds <s>      simulated seconds of the demo (default 5)
  --out <file>       where the demo writes the final pose as JSON
                     (default examples/dist/demo/<scene>.pose.json)
  --set <id>=<value> a control of the scene, as on the page (repeatable), e.g.
                     --set count=20 for the pile, --set fade=3 for the death scene
  --port <n>         port of the server (default PORT or 5173; a free port if taken)
  --host <address>   interface of the server (default 127.0.0.1; 0.0.0.0 to share it)`;

function number(name: string, text: string | undefined, check: (x: number) => boolean): number | undefined {
  if (text === undefined) return undefined;
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || !check(x)) throw new UsageError(`--${name}: unexpected value "${text}"`);
  return x;
}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        scene: { type: 'string' },
        seconds: { type: 'string' },
        out: { type: 'string' },
        set: { type: 'string', multiple: true },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`one command expected, got: ${positionals.join(' ')}`);
  const word = positionals[0];
  if (word !== undefined && !COMMANDS.includes(word as Command)) throw new UsageError(`unknown command "${word}"`);
  const command: Command = values.help ? 'help' : ((word as Command | undefined) ?? 'auto');
  const controls: Record<string, string> = {};
  for (const kv of values.set ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set: expected <id>=<value>, got "${kv}"`);
    controls[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const port = number('port', values.port ?? env.PORT, (x) => Number.isInteger(x) && x >= 0 && x < 65536);
  return {
    command,
    scene: values.scene,
    seconds: number('seconds', values.seconds, (x) => x > 0),
    out: values.out,
    ...(Object.keys(controls).length ? { controls } : {}),
    port,
    host: values.host,
  };
}
