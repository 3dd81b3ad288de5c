// Starts GraphiQL on /graphql/ (web/pages/graphiql.page.ts). A file, not an inline script: the
// page's Content-Security-Policy allows scripts from this service only. A signed-in browser's
// POST carries the CSRF secret from the `csrftoken` cookie in X-CSRFToken, as Django expects, and
// every request asks for the page's API dialect (NetBox's Accept: application/json; version=X).
(() => {
  function cookie(name) {
    const parts = document.cookie ? document.cookie.split('; ') : [];
    for (let i = 0; i < parts.length; i++) {
      const eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) === name) return decodeURIComponent(parts[i].slice(eq + 1));
    }
    return '';
  }
  const root = document.getElementById('graphiql');
  const fetcher = GraphiQL.createFetcher({
    url: root.getAttribute('data-endpoint'),
    headers: {
      'X-CSRFToken': cookie('csrftoken'),
      accept: `application/json; version=${root.getAttribute('data-api-version')}`,
    },
  });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: root.getAttribute('data-default-query'),
      isHeadersEditorEnabled: true,
    }),
  );
})();
