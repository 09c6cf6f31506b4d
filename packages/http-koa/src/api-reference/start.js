// Starts Swagger UI on the service's own OpenAPI document; no request leaves this server.
window.addEventListener("load", () => {
  window.SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  })
})
