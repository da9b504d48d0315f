// Evaluates the script file named on the command line in QuickJS (quickjs-emscripten, a
// WebAssembly build of the engine) and prints the string it yields; an exception goes to stderr
// and the exit code is 1. A separate process, so that the test runner's own event loop stays free
// during the minute QuickJS interprets the scenes.
import { readFileSync } from 'node:fs';
import { getQuickJS } from 'quickjs-emscripten';

const code = readFileSync(process.argv[2], 'utf8');
const quickjs = await getQuickJS();
const runtime = quickjs.newRuntime();
runtime.setMaxStackSize(0);
const vm = runtime.newContext();
const result = vm.evalCode(code, 'scenes.js');
if (result.error) {
  const e = vm.dump(result.error);
  process.stderr.write(`QuickJS: ${typeof e === 'object' ? JSON.stringify(e) : String(e)}\n`);
  process.exit(1);
}
process.stdout.write(vm.getString(result.value));
