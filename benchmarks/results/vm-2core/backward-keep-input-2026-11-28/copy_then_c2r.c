#include <fftw3.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static void copy_omp(double *to,const double *from,long n,double f){
#pragma omp parallel for num_threads(2) schedule(static)
 for(long i=0;i<n;i++) to[i]=from[i]*f;}
static void copy_one(double *to,const double *from,long n,double f){ for(long i=0;i<n;i++) to[i]=from[i]*f;}
static void loop(void *(*work)(char *), char *jobdata, size_t elsize, int njobs, void *data){(void)data;
#pragma omp parallel for num_threads(njobs) schedule(static)
 for(int i=0;i<njobs;i++) work(jobdata+elsize*(size_t)i);}
int main(int argc,char**argv){
 int N=atoi(argv[1]); int reps=atoi(argv[2]); int cb=getenv("CB")!=NULL;
 fftw_init_threads(); if(cb) fftw_threads_set_callback(loop,NULL); fftw_plan_with_nthreads(2);
 long nc=(long)N*N*(N/2+1)*2, nr=(long)N*N*N;
 double *in=fftw_malloc(nc*8),*scr=fftw_malloc(nc*8),*out=fftw_malloc(nr*8),*y=fftw_malloc(nc*8);
 for(long i=0;i<nc;i++){in[i]=(i%17)*0.1;scr[i]=0;} for(long i=0;i<nr;i++)out[i]=(i%13)*.1;
 fftw_plan f=fftw_plan_dft_r2c_3d(N,N,N,out,(fftw_complex*)y,FFTW_MEASURE);
 fftw_plan p=fftw_plan_dft_c2r_3d(N,N,N,(fftw_complex*)scr,out,FFTW_MEASURE|FFTW_DESTROY_INPUT);
 for(long i=0;i<nr;i++)out[i]=(i%13)*.1;
 double best[6]={1e9,1e9,1e9,1e9,1e9,1e9}; const char*nm[6]={"fwd + omp copy + c2r","fwd + 1-thread copy + c2r","fwd + c2r (destroy)","omp copy alone","1-thread copy alone","c2r alone"};
 for(int r=0;r<reps;r++) for(int k=0;k<6;k++){
   if(k>=3){ struct timespec s={0,20000000}; if(k==5) memcpy(scr,y,nc*8); nanosleep(&s,0); double t0=now(); if(k==3) copy_omp(scr,y,nc,0.5); else if(k==4) copy_one(scr,y,nc,0.5); else fftw_execute_dft_c2r(p,(fftw_complex*)scr,out); double t=now()-t0; if(t<best[k])best[k]=t; continue; }
   double t0=now();
   fftw_execute_dft_r2c(f,out,(fftw_complex*)y);
   if(k==0){copy_omp(scr,y,nc,0.5); fftw_execute_dft_c2r(p,(fftw_complex*)scr,out);}
   else if(k==1){copy_one(scr,y,nc,0.5); fftw_execute_dft_c2r(p,(fftw_complex*)scr,out);}
   else fftw_execute_dft_c2r(p,(fftw_complex*)y,out);
   double t=now()-t0; if(t<best[k])best[k]=t; }
 for(int k=0;k<6;k++) printf("N=%d cb=%d %-28s best %.2f ms\n",N,cb,nm[k],best[k]*1e3);
 return 0;}
