package probe

// FreshSecret returns a new secret for a probe's sensitive argument, one
// that the run's findings never show (see Session.Hide).
func (p *Probe) FreshSecret() string { return p.s.secrets.Fresh() }

// FreshAccentedSecret returns a new secret that ends in a space, the
// ligature fi (U+FB01), a letter with a diaeresis (U+00EB) and a key
// (U+1F511, outside the Basic Multilingual Plane), so that its four
// normalisation forms differ (NFD decomposes the ë, NFKC and NFKD the
// ligature too), so do its percent-encodings (a space is %20 or +), and
// JSON escapes it as a surrogate pair; its ASCII part is a secret too.
func (p *Probe) FreshAccentedSecret() string {
	v := p.s.secrets.Fresh() + " \ufb01\u00eb\U0001f511"
	p.s.secrets.Remember(v)
	return v
}

// FreshShortSecret returns a new secret of three letters (secrets.Set.Short).
func (p *Probe) FreshShortSecret() string { return p.s.secrets.Short() }
