/**
 * The FORM body of POST portal_export (spec "Data backup": "form field access_code (string,
 * password protecting the downloaded file); attachment_needed also appears in a client example").
 */
import { z } from 'zod';

export const BackupRequest = z
  .object({
    access_code: z.string().min(1),
    /** Purpose not shown; the emulator adds comments' attachments to the archive when true. */
    attachment_needed: z.boolean().optional(),
  })
  .strict();
export type BackupRequest = z.input<typeof BackupRequest>;

/**
 * The access code's rule. The spec gives none; ours, applied alike by the app before it asks and
 * by the emulator when it is asked: 8 to 64 characters (code points), none of them a control
 * character (the code becomes the archive's AES-256 password, typed again to open it).
 */
export const ACCESS_CODE_MIN = 8;
export const ACCESS_CODE_MAX = 64;

/** What is wrong with an access code, in words, or null when it is fine. */
export function accessCodeProblem(code: string): string | null {
  const length = [...code].length;
  if (length < ACCESS_CODE_MIN)
    return `The access code is shorter than ${ACCESS_CODE_MIN} characters.`;
  if (length > ACCESS_CODE_MAX)
    return `The access code is longer than ${ACCESS_CODE_MAX} characters.`;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(code))
    return 'The access code contains a control character (a tab or a new line).';
  return null;
}
