// k8s-schemas writes a JSON schema for every kind of the built-in Kubernetes API groups, in the
// layout kubeconform reads (`{{ .ResourceKind }}{{ .KindSuffix }}.json`: deployment-apps-v1.json),
// generated from the Go types of k8s.io/api, so deploy/test/k8s.test.ts can validate the rendered
// manifests offline (kubeconform's usual schemas are downloaded from GitHub, which is not
// reachable here).
//
// The schemas follow the rules of Kubernetes' own OpenAPI generator: the JSON name of each
// field, a field without `omitempty` is required, no field outside the type is allowed
// (additionalProperties: false), an optional scalar may be null, and the types with their own
// JSON form keep it (a Quantity is a string or a number, an IntOrString a string or an integer,
// a Time a string).
// Not covered (the API server checks them): enum values, formats, cross-field rules.
//
//	go run . OUT_DIR
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type schema = map[string]any

var (
	anyValue      = schema{}
	jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	// types whose JSON form is not their Go structure
	special = map[reflect.Type]schema{
		reflect.TypeOf(resource.Quantity{}):    {"oneOf": []any{schema{"type": "string"}, schema{"type": "number"}}},
		reflect.TypeOf(intstr.IntOrString{}):   {"oneOf": []any{schema{"type": "string"}, schema{"type": "integer"}}},
		reflect.TypeOf(metav1.Time{}):          {"type": "string"},
		reflect.TypeOf(metav1.MicroTime{}):     {"type": "string"},
		reflect.TypeOf(metav1.Duration{}):      {"type": "string"},
		reflect.TypeOf(runtime.RawExtension{}): anyValue,
		reflect.TypeOf(metav1.FieldsV1{}):      {"type": "object"},
	}
)

// generator collects the definitions one kind's schema refers to.
type generator struct{ defs map[string]schema }

func defName(t reflect.Type) string {
	return strings.NewReplacer("/", ".", "-", "_").Replace(t.PkgPath()) + "." + t.Name()
}

func (g *generator) of(t reflect.Type) schema {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := special[t]; ok {
		return s
	}
	if t.Kind() == reflect.Struct && (t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler)) {
		return anyValue // an unknown JSON form: accept anything rather than guess
	}
	switch t.Kind() {
	case reflect.String:
		return schema{"type": "string"}
	case reflect.Bool:
		return schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return schema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return schema{"type": "number"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return schema{"type": "string"} // []byte: base64
		}
		return schema{"type": "array", "items": g.of(t.Elem())}
	case reflect.Map:
		return schema{"type": "object", "additionalProperties": g.of(t.Elem())}
	case reflect.Interface:
		return anyValue
	case reflect.Struct:
		name := defName(t)
		if _, seen := g.defs[name]; !seen {
			g.defs[name] = nil // recursion guard
			g.defs[name] = g.object(t)
		}
		return schema{"$ref": "#/definitions/" + name}
	}
	panic(fmt.Sprintf("no schema for %s", t))
}

// object: the fields of a struct as Go's encoding/json sees them (inline and embedded structs
// merged), additionalProperties false, required = fields without omitempty.
func (g *generator) object(t reflect.Type) schema {
	props := schema{}
	var required []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			parts := strings.Split(tag, ",")
			name, opts := parts[0], parts[1:]
			inline := false
			for _, o := range opts {
				if o == "inline" {
					inline = true
				}
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if (inline || (f.Anonymous && name == "")) && ft.Kind() == reflect.Struct {
				walk(ft)
				continue
			}
			if name == "" {
				name = f.Name
			}
			omitempty := false
			for _, o := range opts {
				if o == "omitempty" || o == "omitzero" {
					omitempty = true
				}
			}
			s := g.of(f.Type)
			if omitempty {
				s = nullable(s)
			} else {
				required = append(required, name)
			}
			props[name] = s
		}
	}
	walk(t)
	out := schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-schemas OUT_DIR")
		os.Exit(2)
	}
	out := os.Args[1]
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		admissionregistrationv1.AddToScheme, appsv1.AddToScheme, autoscalingv1.AddToScheme,
		autoscalingv2.AddToScheme, batchv1.AddToScheme, coordinationv1.AddToScheme,
		corev1.AddToScheme, discoveryv1.AddToScheme, networkingv1.AddToScheme,
		policyv1.AddToScheme, rbacv1.AddToScheme, schedulingv1.AddToScheme, storagev1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		panic(err)
	}
	n := 0
	for gvk, t := range scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		g := &generator{defs: map[string]schema{}}
		root := g.object(t)
		apiVersion := gvk.Version
		if gvk.Group != "" {
			apiVersion = gvk.Group + "/" + gvk.Version
		}
		props := root["properties"].(schema)
		props["apiVersion"] = schema{"type": "string", "enum": []string{apiVersion}}
		props["kind"] = schema{"type": "string", "enum": []string{gvk.Kind}}
		root["required"] = mergeRequired(root["required"], "apiVersion", "kind")
		root["definitions"] = g.defs
		root["$schema"] = "http://json-schema.org/draft-07/schema#"
		// kubeconform's KindSuffix: "-" + the group's first DNS label (if any) + "-" + version
		suffix := "-" + strings.ToLower(strings.Split(gvk.Group, ".")[0])
		if gvk.Group == "" {
			suffix = ""
		}
		file := filepath.Join(out, strings.ToLower(gvk.Kind)+suffix+"-"+gvk.Version+".json")
		data, err := json.Marshal(root)
		if err != nil {
			panic(err)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			panic(err)
		}
		n++
	}
	fmt.Printf("wrote %d schemas to %s\n", n, out)
}

// nullable: an optional scalar may also be null (`creationTimestamp: null`, as kubectl writes
// it). Objects and lists are left as they are, so that an error inside them stays readable.
func nullable(s schema) schema {
	t, ok := s["type"].(string)
	if !ok || t == "object" || t == "array" {
		return s
	}
	out := schema{}
	for k, v := range s {
		out[k] = v
	}
	out["type"] = []string{t, "null"}
	return out
}

func mergeRequired(have any, names ...string) []string {
	list, _ := have.([]string)
	seen := map[string]bool{}
	for _, n := range list {
		seen[n] = true
	}
	for _, n := range names {
		if !seen[n] {
			list = append(list, n)
		}
	}
	sort.Strings(list)
	return list
}
