/** The selected rows to the clipboard: the toolbar's Copy and Ctrl/Cmd+C in the table. */
export const copyToClipboard = (text: string): Promise<void> => navigator.clipboard.writeText(text);
