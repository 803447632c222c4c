{{- define "ssogate.fullname" -}}
{{ .Release.Name }}-ssogate
{{- end }}

{{- define "ssogate.labels" -}}
app.kubernetes.io/name: ssogate
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}

{{- define "ssogate.selectorLabels" -}}
app.kubernetes.io/name: ssogate
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "ssogate.secretName" -}}
{{- if .Values.existingSecret -}}
{{ .Values.existingSecret }}
{{- else -}}
{{ .Release.Name }}-ssogate
{{- end -}}
{{- end }}
