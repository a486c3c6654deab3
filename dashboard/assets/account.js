// Account: change the password; turn the TOTP second factor on (its QR code, the key in groups
// of four, the code) or off, the recovery codes (how many are left; new ones shown once, to copy,
// download or print; new ones in place of the old), and sign out everywhere. The QR code arrives as SVG text and is
// shown through an <img> from a blob: URL (as Try it shows its symbols), the codes' text file is
// a blob: download: the page's CSP allows both, and no server text is parsed into the page.
import { announce, callData, confirmThenChange, copyText, guarded, guardedForm, startPage } from './dashboard.js';

const element = (id) => document.getElementById(id);
let email = '';
let qrCodeUrl = null; // the blob: URL of the QR code being shown
let codesFileUrl = null; // the blob: URL of the recovery codes' text file

function revoke(url) {
  if (url !== null) URL.revokeObjectURL(url);
  return null;
}

function showState(enabled) {
  element('totp-state').textContent =
      enabled ? 'Two-factor authentication is on.' : 'Two-factor authentication is off.';
  element('totp-off').hidden = enabled;
  element('recovery').hidden = !enabled;
  element('totp-disable').hidden = !enabled;
}

// "ABCDEFGH..." -> "ABCD EFGH ...": the key as a person types it.
function inGroupsOfFour(key) {
  return key.match(/.{1,4}/g).join(' ');
}

function showCodesLeft(left) {
  const sentence = element('recovery-left');
  sentence.classList.toggle('warning', left === 0);
  if (left === 0) {
    sentence.textContent = 'You have no unused recovery codes. Make new ones: without them, losing the device ' +
                           'that runs your app locks you out.';
  } else {
    sentence.textContent = `You have ${left} unused recovery ${left === 1 ? 'code' : 'codes'}.`;
  }
}

async function loadState() {
  const state = await callData('GET', 'account/totp');
  showState(state.enabled);
  if (state.enabled) showCodesLeft(state.recoveryCodesLeft);
  return state;
}

// New codes, shown once: listed, and offered to copy, as a text file and to print.
function showNewCodes(codes) {
  const title = `Code-Payload Service recovery codes for ${email}`;
  element('recovery-title').textContent = title;
  element('recovery-codes').replaceChildren(...codes.map((code) => {
    const item = document.createElement('li');
    item.textContent = code;
    return item;
  }));
  const text = [title, 'Each code signs you in once, in place of a code from your authenticator app.', '', ...codes]
    .join('\n') + '\n';
  codesFileUrl = revoke(codesFileUrl);
  codesFileUrl = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  element('recovery-download').href = codesFileUrl;
  element('recovery-copied').textContent = '';
  element('recovery-new').hidden = false;
  showCodesLeft(codes.length);
  element('recovery-heading').scrollIntoView();
}

function forgetNewCodes() {
  element('recovery-codes').replaceChildren();
  element('recovery-title').textContent = '';
  element('recovery-download').href = '#';
  codesFileUrl = revoke(codesFileUrl);
  element('recovery-new').hidden = true;
}

function forgetKey() {
  element('totp-secret').value = '';
  element('totp-uri').href = '#';
  element('totp-qr').removeAttribute('src');
  qrCodeUrl = revoke(qrCodeUrl);
}

element('totp-start').addEventListener('click', () => guarded(async () => {
  const started = await callData('POST', 'account/totp/start', {});
  forgetKey();
  qrCodeUrl = URL.createObjectURL(new Blob([started.qrCode.svg], { type: 'image/svg+xml' }));
  const image = element('totp-qr');
  image.src = qrCodeUrl;
  image.alt = started.qrCode.label;
  element('totp-secret').value = inGroupsOfFour(started.secret);
  element('totp-uri').href = started.otpauthUri;
  element('totp-confirm-form').hidden = false;
  element('totp-code').focus();
}));

// Sends the form's body to a data endpoint; once answered, empties the form and hands on the
// answer. fields: the form's controls by the names the server gives a refusal's path.
function submitsTo(formId, endpoint, fields, body, then) {
  const form = element(formId);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    guardedForm(form, fields, async () => {
      const answer = await callData('POST', endpoint, body());
      form.reset();
      then(answer);
    });
  });
}

submitsTo('password-form', 'account/password',
          { password: 'password-current', newPassword: 'password-new', confirmPassword: 'password-confirm' }, () => ({
  password: element('password-current').value,
  newPassword: element('password-new').value,
  confirmPassword: element('password-confirm').value,
}), () => announce('Your password is changed. Every other session of your account has ended.'));

submitsTo('totp-confirm-form', 'account/totp/confirm', { code: 'totp-code' }, () => ({ code: element('totp-code').value }),
          (confirmed) => {
  element('totp-confirm-form').hidden = true;
  forgetKey();
  element('totp-required').hidden = true;
  showState(true);
  showNewCodes(confirmed.recoveryCodes);
});

element('recovery-copy').addEventListener('click', () => {
  const codes = [...element('recovery-codes').children].map((item) => item.textContent);
  copyText(codes.join('\n'), element('recovery-codes'), element('recovery-copied'));
});

// The print stylesheet prints the new codes alone while they are shown.
element('recovery-print').addEventListener('click', () => window.print());

submitsTo('recovery-replace-form', 'account/recovery-codes', { password: 'recovery-password' },
          () => ({ password: element('recovery-password').value }), (replaced) => showNewCodes(replaced.recoveryCodes));

submitsTo('totp-disable-form', 'account/totp/disable', { password: 'totp-password' },
          () => ({ password: element('totp-password').value }), () => {
  forgetNewCodes();
  showState(false);
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
  email = session.email;
  const state = await guarded(loadState);
  if (state !== undefined) {
    element('totp-required').hidden =
        state.enabled || session.kind !== 'user' || !session.organization.requireTotp;
  }
}
