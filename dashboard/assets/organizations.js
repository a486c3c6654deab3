// The operator's page: every organization, its plan and subscription, new organizations and
// an organization's owners (its first user has nobody else to add them).
import {
  announce, button, callData, cell, confirmThenChange, fillBody, formatTime, guarded, guardedForm, identifier,
  startPage,
} from './dashboard.js';

const plans = ['free', 'starter', 'pro', 'enterprise'];

function planSelect(id, chosen, label) {
  const select = document.createElement('select');
  select.id = id;
  if (label !== undefined) select.setAttribute('aria-label', label);
  select.append(...plans.map((plan) => new Option(plan, plan, false, plan === chosen)));
  return select;
}

function organizationRow(organization) {
  const row = document.createElement('tr');
  const path = `organizations/${encodeURIComponent(organization.id)}/`;
  const plan = document.createElement('td');
  const choice = planSelect(`plan-${organization.id}`, organization.plan, `Plan of ${organization.name}`);
  plan.append(choice, button('Set plan', () => guarded(async () => {
    announce('');
    const changed = await callData('POST', `${path}plan`, { plan: choice.value });
    await load();
    announce(`Set the plan of ${organization.name} to ${changed.plan}.`);
  })));
  const id = document.createElement('td');
  id.append(identifier(organization.id, 'organization ID'));
  const active = organization.subscription === 'active';
  const actions = document.createElement('td');
  const setSubscription = (subscription) => async () => {
    await callData('POST', `${path}subscription`, { subscription });
    await load();
  };
  actions.append(active
    ? button('Deactivate subscription', () => confirmThenChange({
      question: `Deactivate the subscription of ${organization.name}?`,
      consequence: `The API clients of ${organization.name} stop working at once: their token requests are ` +
        'refused and their tokens get 403 at /codes. Its users cannot create API clients. Nothing is deleted: ' +
        'activating the subscription again lets the same clients and tokens work again.',
      action: 'Deactivate subscription',
    }, setSubscription('inactive'), `Deactivated the subscription of ${organization.name}.`))
    : button('Activate subscription', () => guarded(async () => {
      announce('');
      await setSubscription('active')();
      announce(`Activated the subscription of ${organization.name}.`);
    })));
  row.append(cell(organization.name, 'th'), id, plan, cell(organization.subscription),
             cell(organization.coversApiClients ? 'allowed' : 'not allowed'), cell(formatTime(organization.createdAt)),
             actions);
  return row;
}

const ownerOrganization = document.getElementById('owner-org');

async function load() {
  const answer = await callData('GET', 'organizations');
  fillBody(document.querySelector('#organizations tbody'), answer.organizations.map(organizationRow), 7,
           'No organizations yet.');
  const chosen = ownerOrganization.value;
  ownerOrganization.replaceChildren(...answer.organizations.map(
    (organization) => new Option(organization.name, organization.id, false, organization.id === chosen)));
}

document.getElementById('org-plan').append(...plans.map((plan) => new Option(plan, plan, false, plan === 'starter')));
document.getElementById('create-org-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  guardedForm(form, { name: 'org-name', plan: 'org-plan' }, async () => {
    announce('');
    const created = await callData('POST', 'organizations', {
      name: document.getElementById('org-name').value, plan: document.getElementById('org-plan').value,
    });
    form.reset();
    await load();
    announce(`Created ${created.name} (${created.id}) on the ${created.plan} plan: add its first owner below.`);
  });
});
document.getElementById('add-owner-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  const organization = ownerOrganization.selectedOptions[0];
  guardedForm(form, { email: 'owner-email', password: 'owner-password' }, async () => {
    announce('');
    const added = await callData('POST', `organizations/${encodeURIComponent(organization.value)}/owners`, {
      email: document.getElementById('owner-email').value, password: document.getElementById('owner-password').value,
    });
    form.reset();
    announce(`Added ${added.email} as an owner of ${organization.textContent}: they can sign in now.`);
  });
});

const session = await startPage();
if (session !== undefined) await guarded(load);
