/**
 * Rendering quality: full (antialiasing, soft shadows, high-DPI) on a GPU, reduced when WebGL runs
 * on a software rasteriser (SwiftShader, llvmpipe): no antialiasing, hard shadows from a small map.
 * `?quality=high`, `?quality=low` or `?quality=minimal` (no shadows) in the URL overrides the choice.
 */
export interface Quality {
  readonly level: 'high' | 'low';
  readonly reason: string;
  readonly antialias: boolean;
  readonly shadows: boolean;
  /** Texels on a side of the sun's shadow map. */
  readonly shadowMapSize: number;
  readonly maxPixelRatio: number;
}

const HIGH = { level: 'high', antialias: true, shadows: true, shadowMapSize: 2048, maxPixelRatio: 2 } as const;
/** A software rasteriser: no antialiasing, one pixel per CSS pixel, hard shadows from a small map (contact with the floor stays visible). */
const LOW = { level: 'low', antialias: false, shadows: true, shadowMapSize: 1024, maxPixelRatio: 1 } as const;
/** `?quality=minimal`: no shadows at all. */
const MINIMAL = { level: 'low', antialias: false, shadows: false, shadowMapSize: 512, maxPixelRatio: 1 } as const;

/** The WebGL renderer's name, or null when the browser does not tell. */
export function webglRendererName(): string | null {
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (!gl) return null;
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  const name = ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

export function chooseQuality(search: string): Quality {
  const asked = new URLSearchParams(search).get('quality');
  if (asked === 'high') return { ...HIGH, reason: 'asked in the URL' };
  if (asked === 'low') return { ...LOW, reason: 'asked in the URL' };
  if (asked === 'minimal') return { ...MINIMAL, reason: 'asked in the URL' };
  const name = webglRendererName() ?? '';
  if (/swiftshader|llvmpipe|softpipe|software/i.test(name)) return { ...LOW, reason: `software WebGL (${name.slice(0, 60)})` };
  return { ...HIGH, reason: 'GPU' };
}
