/**
 * A workbook's shared strings (xl/sharedStrings.xml), the texts its cells point at by number, as
 * StringItemText reads each: rich text joined, phonetic runs left out. Held in memory while the
 * sheet is read (a spreadsheet program writes every text there; the export writes none), packed:
 * each block of texts is one string and each text an end offset in it (4 bytes), because a string
 * and an array slot of its own per text cost about 30 bytes each whatever the text's length.
 */
import { StringItemText } from './stringItemText';
import { xmlEvents } from './xmlEvents';

/**
 * Ours: the most texts the shared strings may hold. The shortest item holding a text,
 * `<si><t>a</t></si>`, is 17 characters, so a part within XLSX_PART_MAX_CHARS (64 Mi) holds
 * fewer than 4 Mi of them; only a file of millions of empty items (`<si/>`, 5 characters, a few
 * bytes zipped) comes past it, as no spreadsheet writes (Excel keeps each distinct text once, and
 * a real workbook's distinct texts are far fewer than its cells). Read as strings of their own, 5
 * million empty items held 143 MB of heap.
 */
export const SHARED_STRINGS_MAX_ITEMS = 4 * 1024 * 1024;

/** Texts per block: joined once the block is full. */
const BLOCK_ITEMS = 4096;

/** The shared strings, by number. */
export interface SharedStrings {
  readonly count: number;
  /** The text numbered `index`; undefined when the file holds no such text. */
  get(index: number): string | undefined;
}

export const NO_SHARED_STRINGS: SharedStrings = { count: 0, get: () => undefined };

/** Texts appended in order, kept as joined blocks and end offsets. */
class PackedStrings implements SharedStrings {
  count = 0;
  private ends = new Uint32Array(BLOCK_ITEMS);
  private blocks: string[] = [];
  private open: string[] = [];
  private openLength = 0;

  add(text: string): void {
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.openLength += text.length;
    this.ends[this.count++] = this.openLength;
    this.open.push(text);
    if (this.open.length === BLOCK_ITEMS) this.closeBlock();
  }

  /** The texts not yet in a block become one. */
  closeBlock(): void {
    if (this.open.length === 0) return;
    this.blocks.push(this.open.join(''));
    this.open = [];
    this.openLength = 0;
  }

  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const block = this.blocks[Math.floor(index / BLOCK_ITEMS)];
    if (block === undefined) return undefined;
    const start = index % BLOCK_ITEMS === 0 ? 0 : this.ends[index - 1]!;
    return block.slice(start, this.ends[index]);
  }
}

export async function readSharedStrings(text: AsyncIterable<string>): Promise<SharedStrings> {
  const strings = new PackedStrings();
  const item = new StringItemText();
  let inItem = false;
  const events = xmlEvents(text, {
    open(name) {
      if (name === 'si') inItem = true;
      else if (inItem) item.open(name);
    },
    close(name) {
      if (name === 'si') {
        if (strings.count === SHARED_STRINGS_MAX_ITEMS) {
          throw new Error(
            `its shared strings hold more than ${SHARED_STRINGS_MAX_ITEMS.toLocaleString('en-US')} texts, more than a workbook of its size can: a spreadsheet keeps each distinct text once`,
          );
        }
        strings.add(item.take());
        inItem = false;
      } else if (inItem) item.close(name);
    },
    text(t) {
      if (inItem) item.add(t);
    },
  });
  for await (const _ of events) void _;
  strings.closeBlock();
  return strings;
}
