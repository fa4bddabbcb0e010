"""Evidence specific to Liang et al. (``liang-icml`` and ``liang-aaai``): the instance
oracles of the utility proof (:mod:`.instance`), the papers' figures (:mod:`.figures`,
imported only when a figure is rendered: it needs torch and matplotlib) and the
``dpcheck derive beta|tradeoff`` re-derivations (:mod:`.derive`)."""
from checks.papers.liang import derive, instance  # noqa: F401  (registration)
from checks.plugins import figure

PAPERS = ("liang-icml", "liang-aaai")


def _lazy(name: str):
    def render(out_dir, **kwargs):
        from checks.papers.liang import figures
        return getattr(figures, name)(out_dir, **kwargs)
    render.__name__ = name
    return render


figure("batch-size", help="ICML Fig. 1 / AAAI Fig. 2: effect of the batch size (DPSGD-GC)",
       papers=PAPERS)(_lazy("fig_batch_size"))
figure("domain-diameter", help="ICML Fig. 2 / AAAI Fig. 3: effect of the domain diameter "
       "(DPSGD-DC)", papers=PAPERS)(_lazy("fig_domain_diameter"))
figure("aaai-fig1", help="AAAI Fig. 1: the RDP bounds of Table 1 over T",
       papers=("liang-aaai",))(_lazy("fig_aaai_1"))
figure("aaai-fig5", help="AAAI Fig. 5: ours vs the trivial bound of App. E.1",
       papers=("liang-aaai",))(_lazy("fig_aaai_5"))
