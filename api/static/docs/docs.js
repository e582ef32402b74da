// The OpenAPI document as a page (api/docs.py): Swagger UI, vendored, reading this server's
// document. Nothing comes from another host: no validator badge (validatorUrl), no document
// named in the page's address (queryConfigEnabled is off, so a link cannot make the page show
// another server's document). A token given in Authorize stays in this page's memory.
window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  queryConfigEnabled: false,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
