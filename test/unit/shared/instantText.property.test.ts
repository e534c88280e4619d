import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantTextOf } from '../../../src/shared/recordValues/instantText';

/** The options describeValue's formatInstant shows instants with. */
const SHOWN: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

const LOCALES = [
  'en-US',
  'en-GB',
  'en-IN',
  'de-DE',
  'fr-FR',
  'ca-ES',
  'ru-RU',
  'pl-PL',
  'ja-JP',
  'ko-KR',
  'zh-CN',
  'zh-TW',
  'hi-IN',
  'ar-EG',
  'fa-IR',
  'th-TH',
  'he-IL',
  'bg-BG',
  'es-MX',
  'pt-BR',
];
const ZONES = Intl.supportedValuesOf('timeZone');
/** 1850 to 2150: both ends beyond what the learnt text covers. */
const instants = fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2150, 0, 1) });
/** Instants near the zone's transitions and day ends: the hours either side of midnight UTC. */
const nearDayEnds = fc
  .tuple(fc.integer({ min: -25_567, max: 47_000 }), fc.integer({ min: -3 * 3600, max: 3 * 3600 }))
  .map(([day, second]) => day * 86_400_000 + second * 1000);

describe('instantTextOf', () => {
  it('writes every instant as Intl does, in any zone and locale', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...ZONES),
        fc.array(fc.oneof(instants, nearDayEnds), { minLength: 1, maxLength: 40 }),
        (locale, timeZone, times) => {
          const format = new Intl.DateTimeFormat(locale, { ...SHOWN, timeZone });
          const text = instantTextOf(format, { ...SHOWN, timeZone });
          for (const time of times) expect(text(time)).toBe(format.format(time));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes every hour of a zone with transitions as Intl does, across a year each way', () => {
    for (const timeZone of ['Europe/London', 'America/Sao_Paulo', 'Australia/Lord_Howe']) {
      const format = new Intl.DateTimeFormat('en-GB', { ...SHOWN, timeZone });
      const text = instantTextOf(format, { ...SHOWN, timeZone });
      for (let time = Date.UTC(2025, 0, 1); time < Date.UTC(2026, 0, 1); time += 1_799_000) {
        expect(text(time)).toBe(format.format(time));
      }
    }
  });

  it('learns the text of common locales (Intl is not asked for each instant)', () => {
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'ja-JP', 'ru-RU', undefined]) {
      const options = { ...SHOWN, timeZone: 'Asia/Kolkata' };
      const format = new Intl.DateTimeFormat(locale, options);
      let asked = 0;
      const counted = new Proxy(format, {
        get(target, key) {
          if (key === 'format') {
            return (time: number) => {
              asked++;
              return target.format(time);
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      const text = instantTextOf(counted, options);
      asked = 0;
      for (let minute = 0; minute < 1000; minute++) text(Date.UTC(2026, 2, 5, 10, minute));
      expect({ locale, asked }).toEqual({ locale, asked: 0 });
    }
    const options = { ...SHOWN, timeZone: 'Asia/Kolkata' };
    const text = instantTextOf(new Intl.DateTimeFormat('en-GB', options), options);
    expect(text(Date.UTC(2026, 2, 5, 10, 0))).toBe('5 Mar 2026, 15:30');
  });
});
