// Account: turn the TOTP second factor on (key, code, recovery codes) or off, and sign out
// everywhere.
import { callData, confirmThenChange, guarded, startPage } from './dashboard.js';

function showState(enabled) {
  document.getElementById('totp-state').textContent =
      enabled ? 'Two-factor authentication is on.' : 'Two-factor authentication is off.';
  document.getElementById('totp-off').hidden = enabled;
  document.getElementById('totp-disable-form').hidden = !enabled;
}

document.getElementById('totp-start').addEventListener('click', () => guarded(async () => {
  const started = await callData('POST', 'account/totp/start', {});
  document.getElementById('totp-secret').value = started.secret;
  document.getElementById('totp-uri').href = started.otpauthUri;
  document.getElementById('totp-confirm-form').hidden = false;
  document.getElementById('totp-code').focus();
}));

document.getElementById('totp-confirm-form').addEventListener('submit', (event) => {
  event.preventDefault();
  guarded(async () => {
    const confirmed = await callData('POST', 'account/totp/confirm', { code: document.getElementById('totp-code').value });
    const list = document.getElementById('recovery-codes');
    list.replaceChildren(...confirmed.recoveryCodes.map((code) => {
      const item = document.createElement('li');
      item.textContent = code;
      return item;
    }));
    document.getElementById('recovery').hidden = false;
    document.getElementById('totp-confirm-form').hidden = true;
    document.getElementById('totp-secret').value = '';
    document.getElementById('totp-required').hidden = true;
    showState(true);
  });
});

document.getElementById('totp-disable-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  guarded(async () => {
    await callData('POST', 'account/totp/disable', { password: document.getElementById('totp-password').value });
    form.reset();
    document.getElementById('recovery').hidden = true;
    showState(false);
  });
});

// The success message is the sign-in page's: this page is left at once.
document.getElementById('sign-out-everywhere').addEventListener('click', () => confirmThenChange({
  question: 'Sign out everywhere?',
  consequence: 'Every session of your account ends at once, this one included: you, and anyone else signed in as ' +
    'you, must sign in again on every browser and device.',
  action: 'Sign out everywhere',
}, async () => {
  await callData('POST', 'sign-out-everywhere', {});
  window.location.assign('/dashboard/sign-in?signed-out=everywhere');
}, ''));

const session = await startPage();
if (session !== undefined) {
  showState(session.totpEnabled);
  document.getElementById('totp-required').hidden =
      session.totpEnabled || session.kind !== 'user' || !session.organization.requireTotp;
}
