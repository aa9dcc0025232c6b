// The names the installer writes itself, in one place: the code that writes them imports them
// from here, and extraction refuses an archive holding any of them, so what an archive brings
// can never stand where the installer is about to write (a folder named `.ready.json.tmp` made
// every install of that archive fail after extraction, and the kept `.part` was resumed for ever).

/** Written last into an installed model (see ready-marker.ts). */
export const READY_MARKER = '.ready.json';
/** The models folder's state (see state-store.ts). */
export const STATE_FILE = 'state.json';
/** `writeDurably` writes `<name>.tmp` first, then renames it over `<name>`. */
export const TMP_SUFFIX = '.tmp';
/** The folder partial downloads collect in, under the models folder. */
export const PARTIAL_DIR = '.partial';
/** A download under way (archive or single file). */
export const PART_SUFFIX = '.part';
/** A half-extracted install, and a half-deleted model: removed at the next start. */
export const STAGING_PREFIX = '.staging-';
export const TRASH_PREFIX = '.trash-';
/** The second of silence a model without test WAVs is decoded with. */
export const SILENCE_PREFIX = '.silence-';

const EXACT = [READY_MARKER, `${READY_MARKER}${TMP_SUFFIX}`, STATE_FILE, `${STATE_FILE}${TMP_SUFFIX}`, PARTIAL_DIR];
const PREFIXES = [STAGING_PREFIX, TRASH_PREFIX, SILENCE_PREFIX];
const SUFFIXES = [PART_SUFFIX];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One path component the installer reserves. Case-insensitive, because macOS and Windows find
 * `.READY.json` when asked for `.ready.json`; blind to trailing dots and spaces, because Windows
 * drops them (`.ready.json.` is `.ready.json` there). A pattern rather than code so that the
 * extraction worker (plain JavaScript) applies exactly this rule: it receives the source.
 */
export const RESERVED_NAME = new RegExp(
  [`^(?:${EXACT.map(escape).join('|')})[. ]*$`, `^(?:${PREFIXES.map(escape).join('|')})`, `(?:${SUFFIXES.map(escape).join('|')})[. ]*$`].join('|'),
  'i',
);

/** True when `name` (one path component) is one the installer writes itself. */
export function isReservedName(name: string): boolean {
  return RESERVED_NAME.test(name);
}
