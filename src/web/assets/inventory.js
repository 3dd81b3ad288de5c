// Progressive enhancement only: every page works without this file (web/README.md).
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  // GET filter forms: leave empty fields out of the URL
  if (form.method.toLowerCase() === 'get') {
    for (const input of form.querySelectorAll('input, select'))
      if (input.name && input.value === '') input.disabled = true;
  }
  // a button that deletes asks first
  const button = event.submitter;
  if (button?.dataset?.confirm && !window.confirm(button.dataset.confirm)) event.preventDefault();
});
