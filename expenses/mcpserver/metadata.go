// The protected resource metadata of RFC 9728 and the page that says how tokens are obtained.

package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"text/template"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/bananaqr/bananaqr/expenses/oauth"
)

// EndpointPath is the path of the MCP endpoint.
const EndpointPath = "/mcp"

// metadataPrefix is the well-known path of protected resource metadata (RFC 9728 section 3).
// For a resource with a path, section 3.1 inserts the prefix between the host and the path:
// the metadata of <base>/mcp is at <base>/.well-known/oauth-protected-resource/mcp, the URL
// the 401's resource_metadata names. The same document is also served at the prefix alone,
// where clients that know only the origin look.
const metadataPrefix = "/.well-known/oauth-protected-resource"

// docsPath is the page that tells a developer how to get a token, the default
// resource_documentation.
const docsPath = "/"

// ResourceName is the resource_name of the metadata (RFC 9728 section 2).
const ResourceName = "bananaqr shared expenses"

// publicURLs are the public URLs of the server, made from Options.BaseURL.
type publicURLs struct {
	endpoint string // the MCP endpoint: the protected resource's identifier (RFC 9728 1.2)
	metadata string // its metadata, path-suffixed (RFC 9728 3.1)
	docs     string // resource_documentation
}

// newPublicURLs checks base, an origin (scheme http or https, a host, an optional port,
// nothing else), and returns the server's URLs under it; docs, when not "", is the
// documentation's URL instead of the page at base's root.
func newPublicURLs(base, docs string) (publicURLs, error) {
	u, err := url.Parse(base)
	if err != nil {
		return publicURLs{}, fmt.Errorf("base URL %q: %w", base, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return publicURLs{}, fmt.Errorf("base URL %q: want the server's public origin, such as https://expenses.example.com (http or https, a host, an optional port, no path)", base)
	}
	origin := u.Scheme + "://" + u.Host
	p := publicURLs{endpoint: origin + EndpointPath, metadata: origin + metadataPrefix + EndpointPath, docs: docs}
	if docs == "" {
		p.docs = origin + docsPath
	} else if d, err := url.Parse(docs); err != nil || (d.Scheme != "http" && d.Scheme != "https") || d.Host == "" {
		return publicURLs{}, fmt.Errorf("documentation URL %q: want an absolute http or https URL", docs)
	}
	return p, nil
}

// CheckURLs reports whether baseURL and documentationURL are usable as Options.BaseURL and
// Options.DocumentationURL ("" for the default).
func CheckURLs(baseURL, documentationURL string) error {
	_, err := newPublicURLs(baseURL, documentationURL)
	return err
}

// staticDocument is a document whose bytes never change, served with an ETag (answered 304 to
// If-None-Match) and cached for an hour by anyone.
type staticDocument struct {
	body        []byte
	contentType string
	etag        string
}

func newStaticDocument(body []byte, contentType string) *staticDocument {
	sum := sha256.Sum256(body)
	return &staticDocument{body: body, contentType: contentType,
		etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

// ServeHTTP answers GET and HEAD with the document, other methods with 405.
func (d *staticDocument) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", d.contentType)
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("ETag", d.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(d.body))
}

// metadataDocument returns the protected resource metadata (RFC 9728 section 2): the MCP
// endpoint as the resource, bearer tokens in the Authorization header only (RFC 6750 2.1),
// and where the documentation says how tokens are obtained; with an authorization server as,
// the server (MCP authorization, "Authorization Server Discovery") and its scopes. Without one,
// it names none: the only tokens are the static ones of "bananaqr expenses token", each of
// which grants all of its user's data.
func metadataDocument(p publicURLs, as *oauth.Server) *staticDocument {
	m := &oauthex.ProtectedResourceMetadata{
		Resource:               p.endpoint,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           ResourceName,
		ResourceDocumentation:  p.docs,
	}
	if as != nil {
		m.AuthorizationServers = []string{as.Issuer()}
		m.ScopesSupported = oauth.Scopes
	}
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // a struct of strings always encodes
	}
	return newStaticDocument(append(body, '\n'), "application/json")
}

// docsText is the page at docsPath.
var docsText = template.Must(template.New("docs").Parse(`{{.Name}}: an MCP server (Streamable HTTP, stateless)

MCP endpoint:  {{.Endpoint}}
Tools:         {{.Tools}}

Authentication
--------------
Tool calls need a bearer token, sent as an HTTP header:

    Authorization: Bearer <token>
{{if .Issuer}}
MCP clients that support OAuth (assistant apps' custom connectors, IDEs) get one themselves:
add {{.Endpoint}} as a remote MCP server, and the client opens this server's sign-in page,
where you sign in with your name and the password the operator set for you, and allow the
client to read ({{.Read}}) and, if you wish, change ({{.Write}}) your expenses. The
authorization server is {{.Issuer}} (metadata at {{.Issuer}}/.well-known/oauth-authorization-server).

For scripts, the operator can also make a static token, which grants everything:
{{else}}
This server issues its own tokens; there is no OAuth authorization server and no sign-up.
Ask the server's operator for a token. The operator makes one with
{{end}}
    bananaqr expenses user add <name>
    bananaqr expenses token <name> [--ttl 720h]

which prints it once. Configure your MCP client to send the header, for example

    claude mcp add --transport http expenses {{.Endpoint}} --header "Authorization: Bearer <token>"

initialize and tools/list work without a token. A tool call without a valid token is
answered 401 Unauthorized with

    WWW-Authenticate: Bearer resource_metadata="{{.Metadata}}"

(plus error="invalid_token" when the token sent is unknown or expired). The protected
resource metadata (RFC 9728) is at {{.Metadata}}.
`))

// docsDocument returns the page at docsPath.
func docsDocument(p publicURLs, tools []string, as *oauth.Server) *staticDocument {
	var b bytes.Buffer
	data := map[string]string{"Name": ResourceName, "Endpoint": p.endpoint,
		"Metadata": p.metadata, "Tools": strings.Join(tools, ", ")}
	if as != nil {
		data["Issuer"], data["Read"], data["Write"] = as.Issuer(), oauth.ScopeRead, oauth.ScopeWrite
	}
	err := docsText.Execute(&b, data)
	if err != nil {
		panic(err) // the template and its data are fixed
	}
	return newStaticDocument(b.Bytes(), "text/plain; charset=utf-8")
}
