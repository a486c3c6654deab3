// Completing an owner's reset of a password: the one-time code comes in the link's fragment
// (#code=...), which never reaches the server's logs; the page takes it out of the address bar
// and the history at once and sends it with the new password. Success goes to the sign-in page.
import { callData, guardedForm } from './dashboard.js';

const code = new URLSearchParams(window.location.hash.slice(1)).get('code') ?? '';
window.history.replaceState(null, '', window.location.pathname);

document.getElementById('reset-form').addEventListener('submit', (event) => {
  event.preventDefault();
  guardedForm(event.target, { newPassword: 'new-password', confirmPassword: 'confirm-password' }, async () => {
    await callData('POST', 'password-reset', {
      code,
      newPassword: document.getElementById('new-password').value,
      confirmPassword: document.getElementById('confirm-password').value,
    });
    window.location.assign('/dashboard/sign-in?password=reset');
  });
});
