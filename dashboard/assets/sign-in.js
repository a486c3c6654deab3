// The sign-in form: email and password, then the authentication code when the account has a
// second factor (the server answers SecondFactorNeeded). Success goes to the home the server names.
import { ApiError, announce, callData, clearErrorSummary, pageAlert, showError, showErrorSummary } from './dashboard.js';

// The Account page's "Sign out everywhere" ends this browser's session too and comes here.
if (new URLSearchParams(window.location.search).get('signed-out') === 'everywhere') {
  announce('You are signed out everywhere: every session of your account has ended.');
}
// The page that completes a password reset comes here.
if (new URLSearchParams(window.location.search).get('password') === 'reset') {
  announce('Your new password is set: sign in with it.');
}

const form = document.getElementById('sign-in-form');
const codeField = document.getElementById('code-field');
const code = document.getElementById('code');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearErrorSummary(pageAlert(), form);
  announce('');
  const body = { email: document.getElementById('email').value, password: document.getElementById('password').value };
  if (!codeField.hidden && code.value !== '') body.code = code.value;
  try {
    const answer = await callData('POST', 'sign-in', body);
    window.location.assign(answer.home);
  } catch (error) {
    // The question for the second factor is no error: a plain message, and the code's field.
    if (error instanceof ApiError && error.code === 'SecondFactorNeeded') {
      showError(pageAlert(), error);
      codeField.hidden = false;
      code.required = true;
      code.focus();
      return;
    }
    const messages = error instanceof ApiError ? error.errors.map((each) => each.message) : [error.message];
    showErrorSummary(pageAlert(), messages.map((message) => ({ message, place: null })));
  }
});
