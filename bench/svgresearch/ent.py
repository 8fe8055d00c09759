import sys,re,math,gzip
sys.path.insert(0, __import__('os').path.dirname(__file__))
from collections import Counter
def ent(p):
    toks=re.findall(r'[hvmMHVlz][^hvmMHVlz]*',p)
    c=Counter(toks); tot=sum(c.values())
    H=-sum(v/tot*math.log2(v/tot) for v in c.values())
    return tot, round(H,2), round(H*tot/8), len(p), len(gzip.compress(p.encode(),9))
def path(svg):
    return re.search(r' d="([^"]*)"',svg).group(1)
if __name__=='__main__':
    for f in sys.argv[1:]:
        print(f, ent(path(open(f).read())))
