/**
 * The text of a string item (a shared string `<si>`, an inline string `<is>`): its `<t>`, or its
 * runs' `<t>` (rich text) joined, never the `<t>` of its phonetic runs (`<rPh>`, the reading of
 * kanji that Japanese Excel writes after the text). exceljs's readers start the text again at
 * every `<t>`: "東京" with its reading read as "トウキョウ", rich text "Ri"+"ch" as "ch".
 */
export class StringItemText {
  private phonetic = 0;
  private inText = false;
  private parts: string[] = [];

  /** An element opened inside the item. */
  open(name: string): void {
    if (name === 'rPh') this.phonetic++;
    else if (name === 't' && this.phonetic === 0) this.inText = true;
  }

  close(name: string): void {
    if (name === 'rPh') this.phonetic--;
    else if (name === 't') this.inText = false;
  }

  add(text: string): void {
    if (this.inText) this.parts.push(text);
  }

  /** The item's text; the reader is ready for the next item. */
  take(): string {
    const text = this.parts.join('');
    this.parts = [];
    this.phonetic = 0;
    this.inText = false;
    return text;
  }
}
