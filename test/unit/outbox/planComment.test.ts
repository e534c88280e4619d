import { describe, expect, it } from 'vitest';
import { COMMENT_CONTENT_MAX } from '@portaldesk/portal-api/domain/customFieldTypes';
import { LedgerError } from '../../../src/main/outbox/ledgerError';
import { commentContent, planComment } from '../../../src/main/outbox/planComment';
import { outboxOp as op } from './outboxOp';

const mirrored = { content: 'On the service' };
const add = (partial = {}) =>
  op({ kind: 'comment_add', commentId: 'c1', content: 'Added', ...partial });
const edit = (partial = {}) =>
  op({
    kind: 'comment_edit',
    commentId: 'c1',
    content: 'Edited',
    baseContent: 'Before',
    ...partial,
  });
const sent = { sentBody: '{"content":"Edited"}', state: 'sending' as const };

describe('planComment: where a comment change goes in the queue', () => {
  it('changes an add not sent yet instead of queuing an edit', () => {
    const queued = add();
    expect(planComment([queued], 'c1', 'New', undefined)).toEqual({
      drop: [],
      rewrite: queued,
      append: null,
    });
  });

  it('changes the last edit not sent yet, and drops it when it goes back to its base', () => {
    const queued = edit();
    expect(planComment([queued], 'c1', 'New', mirrored).rewrite).toBe(queued);
    expect(planComment([queued], 'c1', 'Before', mirrored)).toEqual({
      drop: [queued.seq],
      rewrite: null,
      append: null,
    });
  });

  it('queues an edit on the newest content, and nothing when the content is the same', () => {
    expect(planComment([], 'c1', 'New', mirrored).append).toEqual({
      kind: 'comment_edit',
      content: 'New',
      baseContent: 'On the service',
    });
    expect(planComment([edit(sent)], 'c1', 'New', mirrored).append).toMatchObject({
      baseContent: 'Edited',
    });
    expect(planComment([], 'c1', 'On the service', mirrored)).toEqual({
      drop: [],
      rewrite: null,
      append: null,
    });
  });

  it('drops an add not sent yet and its edits on delete, and queues nothing', () => {
    const queued = add();
    const queuedEdit = edit();
    expect(planComment([queued, queuedEdit], 'c1', null, undefined)).toEqual({
      drop: [queuedEdit.seq, queued.seq],
      rewrite: null,
      append: null,
    });
  });

  it('queues a delete after dropping the edits not sent yet, with the text last seen', () => {
    const gone = edit(sent);
    const open = edit({ content: 'Edited again' });
    expect(planComment([gone, open], 'c1', null, mirrored)).toEqual({
      drop: [open.seq],
      rewrite: null,
      append: { kind: 'comment_delete', content: 'Edited again' },
    });
    expect(planComment([], 'c1', null, mirrored).append).toEqual({
      kind: 'comment_delete',
      content: 'On the service',
    });
    expect(planComment([add({ ...sent, content: 'Added' })], 'c1', null, undefined).append).toEqual(
      { kind: 'comment_delete', content: 'Added' },
    );
  });

  it('refuses a comment neither queued nor mirrored', () => {
    expect(() => planComment([], 'c9', 'New', undefined)).toThrow(LedgerError);
  });
});

describe('commentContent', () => {
  it('keeps line ends as \\n and refuses empty or too long text', () => {
    expect(commentContent('a\r\nb\rc')).toBe('a\nb\nc');
    expect(() => commentContent('  \n')).toThrow('needs some text');
    expect(() => commentContent('x'.repeat(COMMENT_CONTENT_MAX + 1))).toThrow('at most');
    expect(commentContent('x'.repeat(COMMENT_CONTENT_MAX))).toHaveLength(COMMENT_CONTENT_MAX);
  });
});
