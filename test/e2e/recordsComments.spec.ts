import { expect, test } from '@playwright/test';
import { assetsGrid, openWorkspace, recordsTotal, useRecordsMirror } from './recordsMirror';

/** A small mirror of its own: the comment changes queued here stay in its Outbox. */
const app = useRecordsMirror('comments', 40);

test('a mirrored comment is edited and another deleted offline: marked until sent, listed in the Outbox', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 860 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('40 records');

  // The first record with two comments or more (records #1, #2, #4, #5… hold one to three).
  await assetsGrid(page).focus();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('record-detail');
  const heading = detail.getByRole('heading', { level: 2 });
  const comments = detail.locator('.comment');
  let number = 1;
  for (; ; number++) {
    await expect(heading).toHaveText(new RegExp(`#${number}$`));
    if (number % 3 !== 0) await expect(comments.first()).toBeVisible();
    if ((await comments.count()) >= 2) break;
    expect(number).toBeLessThan(20);
    await page.keyboard.press('ArrowDown');
  }
  const name = (await heading.textContent()) ?? '';

  // Edit by keyboard: the button opens the text, Escape closes it unchanged and focus returns.
  const first = comments.nth(0);
  const editFirst = first.getByRole('button', { name: /^Edit the comment by / });
  await editFirst.focus();
  await page.keyboard.press('Enter');
  const text = first.getByRole('textbox');
  await expect(text).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(editFirst).toBeFocused();

  await editFirst.click();
  await text.fill('Checked on site: the router is back in its rack.');
  await first.getByRole('button', { name: 'Save comment' }).click();
  await expect(first.getByTestId('comment-change')).toHaveText('Edited here, not sent yet');
  // One line, not a word a line squeezed beside the date.
  expect((await first.getByTestId('comment-change').boundingBox())?.height).toBeLessThan(24);
  await expect(first.locator('.comment__content')).toHaveText(
    'Checked on site: the router is back in its rack.',
  );

  const second = comments.nth(1);
  await second.getByRole('button', { name: /^Delete the comment by / }).click();
  await expect(second.getByRole('group', { name: 'Confirm deleting the comment' })).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.screenshot({ path: `test-results/records-comment-confirm-${theme}.png` });
  }
  await second.getByRole('button', { name: 'Delete comment' }).click();
  await expect(second.getByTestId('comment-change')).toHaveText('Deleted here, not sent yet');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.screenshot({ path: `test-results/records-comment-changes-${theme}.png` });
  }

  // Still there after a reload: the changes are the Outbox's, not the panel's.
  await page.reload();
  await assetsGrid(page).focus();
  for (let row = 1; row < number; row++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(heading).toHaveText(name);
  await expect(detail.locator('.comment').nth(0).getByTestId('comment-change')).toHaveText(
    'Edited here, not sent yet',
  );
  await expect(detail.locator('.comment').nth(1).getByTestId('comment-change')).toHaveText(
    'Deleted here, not sent yet',
  );

  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: 'Outbox' })
    .click();
  const waiting = page.getByRole('region', { name: /Waiting to be sent/ });
  await expect(waiting.getByRole('heading')).toHaveText('Waiting to be sent (2)');
  const entries = waiting.getByTestId('outbox-entry');
  await expect(entries.nth(0)).toHaveAttribute('data-kind', 'comment_edit');
  await expect(entries.nth(1)).toHaveAttribute('data-kind', 'comment_delete');
});
