// Starts GraphiQL on /graphql/ (web/pages/graphiql.page.ts). A file, not an inline script: the
// page's Content-Security-Policy allows scripts from this service only. A signed-in browser's
// POST carries the CSRF secret from the `csrftoken` cookie in X-CSRFToken, as Django expects.
(function () {
  function cookie(name) {
    var parts = document.cookie ? document.cookie.split('; ') : [];
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) === name) return decodeURIComponent(parts[i].slice(eq + 1));
    }
    return '';
  }
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({
    url: root.getAttribute('data-endpoint'),
    headers: { 'X-CSRFToken': cookie('csrftoken') },
  });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: root.getAttribute('data-default-query'),
      isHeadersEditorEnabled: true,
    }),
  );
})();
