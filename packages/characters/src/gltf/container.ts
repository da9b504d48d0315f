/**
 * The two glTF containers: a .gltf JSON text, or a .glb binary:
 *
 *   header  magic 'glTF' (0x46546C67) | version 2 | total length      (3 x uint32 LE)
 *   chunk   length | type 'JSON' (0x4E4F534A) | UTF-8 JSON text
 *   chunk   length | type 'BIN\0' (0x004E4942) | binary buffer 0    (optional)
 *
 * Chunks of other types are skipped, as the specification asks.
 */
import { jsonSyntaxError } from '../format/json-text.js';
import { ImportError } from '../motion/import-error.js';

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

export interface GltfContainer {
  json: unknown;
  /** The BIN chunk of a .glb. */
  bin: Uint8Array | undefined;
  isGlb: boolean;
}

export function readContainer(source: string | Uint8Array | ArrayBuffer, file: string): GltfContainer {
  if (typeof source === 'string') return { json: parseJson(source, file, 'JSON'), bin: undefined, isGlb: false };
  const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
  if (bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(0, true) === GLB_MAGIC) return readGlb(bytes, file);
  // not a glb: JSON text (possibly after a byte-order mark and white space)
  let k = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) k = 3;
  while (k < bytes.length && (bytes[k] === 0x20 || bytes[k] === 0x09 || bytes[k] === 0x0a || bytes[k] === 0x0d)) k++;
  if (bytes[k] !== 0x7b) {
    const head = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new ImportError({ file, path: 'bytes 0-3' }, "the glb magic 'glTF' (67 6c 54 46) or a JSON object", bytes.length === 0 ? 'an empty file' : head);
  }
  return { json: parseJson(decodeUtf8(bytes, file, 'JSON'), file, 'JSON'), bin: undefined, isGlb: false };
}

function readGlb(bytes: Uint8Array, file: string): GltfContainer {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (bytes.length < 12) throw new ImportError({ file, path: 'glb header' }, 'a 12-byte header', `${bytes.length} bytes (truncated)`);
  const version = view.getUint32(4, true);
  if (version !== 2) throw new ImportError({ file, path: 'glb header.version (bytes 4-7)' }, 'glTF version 2', String(version));
  const length = view.getUint32(8, true);
  if (length !== bytes.length) {
    throw new ImportError({ file, path: 'glb header.length (bytes 8-11)' }, `the file size, ${bytes.length} bytes`, `${length}${length > bytes.length ? ' (truncated file)' : ''}`);
  }
  let json: unknown, bin: Uint8Array | undefined;
  let offset = 12, chunk = 0;
  while (offset < length) {
    const where = `glb chunk ${chunk} at byte ${offset}`;
    if (offset + 8 > length) throw new ImportError({ file, path: where }, 'an 8-byte chunk header', `${length - offset} bytes left`);
    const chunkLength = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + 8;
    if (chunkLength > length - start) throw new ImportError({ file, path: `${where}.length` }, `at most the ${length - start} bytes left in the file`, String(chunkLength));
    const data = bytes.subarray(start, start + chunkLength);
    if (chunk === 0) {
      if (type !== CHUNK_JSON) throw new ImportError({ file, path: `${where}.type` }, "the first chunk to be JSON (0x4E4F534A)", `0x${type.toString(16).padStart(8, '0')}`);
      json = parseJson(decodeUtf8(data, file, `${where} (JSON)`), file, `${where} (JSON)`);
    } else if (type === CHUNK_BIN) {
      if (bin) throw new ImportError({ file, path: `${where}.type` }, 'at most one BIN chunk', 'a second one');
      bin = data;
    }
    offset = start + chunkLength;
    chunk++;
  }
  if (chunk === 0) throw new ImportError({ file, path: 'glb chunk 0' }, 'a JSON chunk', 'no chunks');
  return { json, bin, isGlb: true };
}

function decodeUtf8(bytes: Uint8Array, file: string, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ImportError({ file, path }, 'UTF-8 text', 'bytes that are not valid UTF-8');
  }
}

function parseJson(text: string, file: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const syntax = jsonSyntaxError(text);
    const m = /position (\d+)/.exec(msg);
    const at = syntax ? ` line ${syntax.line}, column ${syntax.column}` : m ? ` at character ${m[1]}` : '';
    if (syntax) throw new ImportError({ file, path: `${path}${at}` }, `valid JSON: ${syntax.expected}`, syntax.found);
    throw new ImportError({ file, path: `${path}${at}` }, 'valid JSON', msg.length > 120 ? `${msg.slice(0, 120)}...` : msg);
  }
}
