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
