/**
 * What reading a page of records costs the client (`npm run bench:parse`, through
 * bench/parseReply.mjs): pages of 200 synthetic records in the list reply's envelope, as bytes,
 * parsed by the client's parseJsonBytes and, for comparison, by decoding them into one string
 * and JSON.parse (what the client did before parseJsonBytes). Rounds alternate between the two so
 * that a busy machine slows both alike. Writes one JSON object to PARSE_BENCH_OUT (or prints it);
 * asserts nothing but that both give the same value.
 */
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { it } from 'vitest';
import { parseJsonBytes } from '../src/main/api/client/parseJsonBytes';
import { record } from './syntheticRecords';

const PAGES = Number(process.env.PARSE_BENCH_PAGES ?? 20);
const ROUNDS = Number(process.env.PARSE_BENCH_ROUNDS ?? 30);
const OUT = process.env.PARSE_BENCH_OUT;
const PER_PAGE = 200;

function page(index: number): Buffer {
  const entities = Array.from({ length: PER_PAGE }, (_, i) => record(index * PER_PAGE + i));
  const pageInfo = { page: index + 1, per_page: PER_PAGE, has_next_page: true, page_count: 1e6 };
  return Buffer.from(JSON.stringify({ entities, page_info: pageInfo }));
}

/** Milliseconds a page, over one pass of every page. */
function pass(pages: readonly Buffer[], parse: (bytes: Buffer) => unknown): number {
  const started = process.hrtime.bigint();
  for (const bytes of pages) parse(bytes);
  return Number(process.hrtime.bigint() - started) / 1e6 / pages.length;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

it('parses pages of records', () => {
  const pages = Array.from({ length: PAGES }, (_, i) => page(i));
  const whole = (bytes: Buffer) => JSON.parse(bytes.toString('utf8'));
  if (!isDeepStrictEqual(parseJsonBytes(pages[0]!), whole(pages[0]!))) {
    throw new Error('parseJsonBytes and JSON.parse disagree on a page');
  }
  const cut: number[] = [];
  const oneString: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    cut.push(pass(pages, (bytes) => parseJsonBytes(bytes)));
    oneString.push(pass(pages, whole));
  }
  const cutMs = median(cut);
  const result = {
    benchmark: 'parse',
    page_bytes: Math.round(pages.reduce((sum, bytes) => sum + bytes.length, 0) / pages.length),
    records_per_page: PER_PAGE,
    parse_json_bytes_ms_per_page: Number(cutMs.toFixed(3)),
    json_parse_ms_per_page: Number(median(oneString).toFixed(3)),
    parse_json_bytes_us_per_record: Number(((cutMs * 1000) / PER_PAGE).toFixed(2)),
    pages: PAGES,
    rounds: ROUNDS,
  };
  const line = JSON.stringify(result);
  if (OUT) writeFileSync(OUT, line);
  else console.log(line);
});
