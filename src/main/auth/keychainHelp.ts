/** How to get a working keychain on each OS, for the message a refused sign-in shows. Pure. */
export function keychainHelp(platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    return 'Unlock your login keychain in Keychain Access (or sign in to macOS again) and try again.';
  }
  if (platform === 'win32') {
    return 'Make sure Windows Credential Manager is available for your user (it is not on some locked-down machines) and try again.';
  }
  return 'Install and start a Secret Service provider such as GNOME Keyring (Debian/Ubuntu: sudo apt install gnome-keyring) or KWallet, make sure it is unlocked and that a D-Bus session is running (it is in any desktop session; over SSH start one with dbus-run-session), then try again.';
}
