/** What the IPC transport knows about the sender of a call, gathered from Electron's event. */
export interface IpcSenderFacts {
  webContentsId: number;
  /** Null when the frame has navigated away or been destroyed since it sent the message. */
  frame: { isMainFrame: boolean; url: string } | null;
}

export interface SenderVerdict {
  trusted: boolean;
  description: string;
}

/**
 * A call is trusted only from the main frame of one of our own windows while that frame shows our
 * own app: never from an iframe, a foreign page the window was navigated to, or another webContents.
 */
export function judgeIpcSender(
  facts: IpcSenderFacts,
  ourWebContentsIds: readonly number[],
  isAppUrl: (url: string) => boolean,
): SenderVerdict {
  const where = `webContents ${facts.webContentsId}`;
  if (!ourWebContentsIds.includes(facts.webContentsId)) {
    return { trusted: false, description: `${where} is not a PortalDesk window` };
  }
  if (facts.frame === null) {
    return { trusted: false, description: `${where}: the sending frame no longer exists` };
  }
  if (!facts.frame.isMainFrame) {
    return { trusted: false, description: `${where}: sent from a sub-frame (${facts.frame.url})` };
  }
  if (!isAppUrl(facts.frame.url)) {
    return { trusted: false, description: `${where}: the frame shows ${facts.frame.url}` };
  }
  return { trusted: true, description: where };
}
