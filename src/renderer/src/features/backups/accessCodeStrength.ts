/**
 * A hint at how hard an access code is to guess, while it is typed: the archive's AES-256 is only
 * as strong as its password. A rough estimate (length and the kinds of characters, with common
 * patterns counted down), never a rule: the rule is 8 to 64 characters (portal-api).
 */
export interface Strength {
  /** 0 too short, 1 weak, 2 fair, 3 strong. */
  level: 0 | 1 | 2 | 3;
  label: string;
  hint: string;
}

const COMMON = /^(?:password|passw0rd|12345678|123456789|qwertyui|abcdefgh|iloveyou|letmein1?)$/i;

/** Bits of a guess: length × log2(alphabet), less for repeats and common words. */
export function estimatedBits(code: string): number {
  const chars = [...code];
  let alphabet = 0;
  if (/[a-z]/.test(code)) alphabet += 26;
  if (/[A-Z]/.test(code)) alphabet += 26;
  if (/\d/.test(code)) alphabet += 10;
  if (/[^A-Za-z0-9]/.test(code)) alphabet += 33;
  const distinct = new Set(chars).size;
  // Repeats add little: count the distinct characters fully and the rest at a quarter.
  const effective = distinct + (chars.length - distinct) / 4;
  const bits = effective * Math.log2(Math.max(alphabet, 1));
  return COMMON.test(code) ? Math.min(bits, 10) : bits;
}

export function accessCodeStrength(code: string): Strength {
  const length = [...code].length;
  if (length < 8) {
    return {
      level: 0,
      label: 'Too short',
      hint: `${8 - length} more character${8 - length === 1 ? '' : 's'} needed (8 to 64).`,
    };
  }
  const bits = estimatedBits(code);
  if (bits < 40) {
    return {
      level: 1,
      label: 'Weak',
      hint: 'Easy to guess: use a longer phrase, or mix words, digits and symbols.',
    };
  }
  if (bits < 70) {
    return { level: 2, label: 'Fair', hint: 'A few more words would make it strong.' };
  }
  return {
    level: 3,
    label: 'Strong',
    hint: 'Keep it safe: without it the backup cannot be opened.',
  };
}
