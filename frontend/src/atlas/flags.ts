let known: boolean | undefined;

/**
 * Whether this browser draws flag emoji as one glyph: without a colour emoji font (some Linux
 * desktops, Windows) a flag is two boxed letters, so the list shows the code instead. Measured
 * once: a flag is about as wide as one emoji, two letters twice that.
 */
export function drawsFlags(): boolean {
  if (known !== undefined) return known;
  try {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return (known = true);
    context.font = '32px sans-serif';
    const flag = context.measureText(String.fromCodePoint(0x1f1eb, 0x1f1f7)).width;
    const letter = context.measureText(String.fromCodePoint(0x1f1eb)).width;
    known = flag < letter * 1.5;
  } catch {
    known = true;
  }
  return known;
}
